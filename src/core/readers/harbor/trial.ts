// One Harbor trial dir → the attempt it is (without its place in the task: id, index and label come later), from
// the files gathered for it (trialFiles.ts) and its result as read (trialResult.ts): no file access here.
import type { Attempt, Evidence, Problem, Tokens } from '../../model';
import type { AgentContext, TrialConfig, TrialResult } from '../../schemas/harbor';
import { jsonDocumentOf, type JsonDocument } from '../jsonFile';
import { EvidenceList, agentEvidence, artifactsEvidence, verifierEvidence, writesTrajectory } from './evidence';
import { baseName, fileUriToPath, joinPath } from './paths';
import { provenanceFromFiles } from './provenance';
import type { ResultRead } from './trialResult';
import { listingOf, type TrialFiles } from './trialFiles';

export type AttemptBody = Omit<Attempt, 'id' | 'index' | 'label'>;

export interface TrialRead {
  name: string;
  dir: string;
  /** task_name of the result, else of the config, else the trial name's prefix (before "__"). */
  taskName: string;
  agent: string | null;
  model: string | null;
  dataset: string | null;
  startedAt: string | null;
  hasResult: boolean;
  /**
   * The job the trial's config names (result.json's config, else config.json): its job_id, and its trials_dir (the
   * job's folder when it ran; its last part is the job's name), with the file that says so. See foreignTrials.ts.
   */
  job?: { id: string | null; trialsDir: string | null; file: string };
  attempt: AttemptBody;
  problems: Problem[];
}

function seconds(a: string | null | undefined, b: string | null | undefined): number | null {
  if (!a || !b) return null;
  const d = (Date.parse(b) - Date.parse(a)) / 1000;
  return Number.isFinite(d) && d >= 0 ? d : null;
}

type Summed = 'n_input_tokens' | 'n_cache_tokens' | 'n_output_tokens' | 'cost_usd';

/** The sum of one count over the contexts that hold it as a finite number; null when none does. */
function sumOf(ctxs: readonly (AgentContext | null | undefined)[], key: Summed): number | null {
  let total: number | null = null;
  for (const c of ctxs) {
    const v = c ? c[key] : null;
    if (typeof v === 'number' && Number.isFinite(v)) total = (total ?? 0) + v;
  }
  return total;
}

function tokensOf(ctxs: (AgentContext | null | undefined)[]): { tokens?: Tokens; cost: number | null } {
  const input = sumOf(ctxs, 'n_input_tokens');
  const cached = sumOf(ctxs, 'n_cache_tokens');
  const output = sumOf(ctxs, 'n_output_tokens');
  const cost = sumOf(ctxs, 'cost_usd');
  return input !== null || cached !== null || output !== null ? { tokens: { input, cached, output }, cost } : { cost };
}

/** The name of the agent a trial ran: agent_info, else the config's (Harbor's default agent is "oracle"). */
function agentName(result: TrialResult | null, config: TrialConfig | null): string | null {
  const cfg = result?.config?.agent ?? config?.agent;
  return result?.agent_info?.name ?? cfg?.name ?? (cfg && !cfg.import_path ? 'oracle' : null);
}

/**
 * The model, as the config names it ("anthropic/claude-sonnet-4-5") so a running trial (config only) and a finished
 * one land in the same cell; else agent_info's "provider/name".
 */
function modelName(result: TrialResult | null, config: TrialConfig | null): string | null {
  const fromConfig = result?.config?.agent?.model_name ?? config?.agent?.model_name;
  if (fromConfig) return fromConfig;
  const mi = result?.agent_info?.model_info;
  if (!mi) return null;
  return mi.provider ? `${mi.provider}/${mi.name}` : mi.name;
}

type TrajectoryWhy = (ran: boolean) => string | null;
type RewardWhy = (ran: boolean, rewards: Record<string, number> | null | undefined) => { why: string; file: string } | null;

/** A JSON file of the trial that was read (stage 2 or 3), as a document; undefined when it was not read. */
function docOf(t: TrialFiles, rel: string, what: string): JsonDocument | undefined {
  const read = t.files.get(rel);
  return read && jsonDocumentOf(joinPath(t.dir, rel), read, what, 'warning');
}

/** The files at the top of the trial folder: result.json, config.json, lock.json, trial.log, user-agent/, exception.txt. */
function topFileEvidence(list: EvidenceList, t: TrialFiles, r: ResultRead, jobFinished: boolean): void {
  const entries = listingOf(t, '');
  const at = (n: string) => joinPath(t.dir, n);
  if (r.state !== 'absent') list.present('result', 'result.json', at('result.json'));
  else if (jobFinished) list.absent('result', 'result.json', at('result.json'), 'the job finished and this trial has no result', false, entries.get('result.json'));
  // Something else under the name (a folder, a FIFO) is never a result still being written: said while the job runs too.
  else if (entries.has('result.json')) list.absent('result', 'result.json', at('result.json'), 'a trial keeps its result there', false, entries.get('result.json'));
  if (entries.get('config.json') === 'file') list.present('config', 'config.json', at('config.json'));
  if (entries.get('lock.json') === 'file') list.present('config', 'lock.json', at('lock.json'));
  if (entries.get('trial.log') === 'file') list.present('trial-log', 'trial.log', at('trial.log'));
  if (entries.get('user-agent') === 'dir') list.present('agent-logs', 'user-agent/', at('user-agent'), true);
  if (entries.get('exception.txt') === 'file') list.present('exception', 'exception.txt', at('exception.txt'));
  else if (r.result?.exception_info) {
    list.absent('exception', 'exception.txt', at('exception.txt'), `result.json records ${r.result.exception_info.exception_type}`, false, entries.get('exception.txt'));
  }
}

/** Why a trajectory and a reward file should be there: the agent ran (and writes ATIF), the verifier ran. */
function expectations(agent: string | null, customAgent: boolean): { trajectoryWhy: TrajectoryWhy; rewardWhy: RewardWhy } {
  const atif = writesTrajectory(agent) && !customAgent;
  return {
    trajectoryWhy: (ran) => (ran && atif ? `agent ${agent} ran and writes an ATIF trajectory` : null),
    rewardWhy: (verifierRan, rewards) => (verifierRan
      ? { why: 'the verifier ran', file: rewards && Object.keys(rewards).some((k) => k !== 'reward') ? 'reward.json' : 'reward.txt' }
      : null),
  };
}

/** The reward provenance findings of a verifier folder (`verifier`: its path relative to the trial). */
function provenanceOf(t: TrialFiles, verifier: string, verifierStartedAt: string | null, recorded: Readonly<Record<string, number>> | null | undefined) {
  const entries = listingOf(t, verifier);
  return provenanceFromFiles(joinPath(t.dir, verifier), (n) => entries.get(n) === 'file', verifierStartedAt, (n) => ({
    text: t.files.get(`${verifier}/${n}`)?.text,
    mtimeMs: t.stats.get(`${verifier}/${n}`)?.mtimeMs,
  }), recorded);
}

/** agent/, verifier/ and artifacts/ of the trial (or of one step: `base` 'steps/<name>/'). */
function folderEvidence(
  list: EvidenceList, t: TrialFiles, base: string, expectTrajectory: string | null,
  expectReward: { why: string; file: string } | null, verifierStartedAt: string | null,
  recorded?: Readonly<Record<string, number>> | null,
): void {
  agentEvidence(list, joinPath(t.dir, `${base}agent`), listingOf(t, `${base}agent`), expectTrajectory);
  verifierEvidence(list, joinPath(t.dir, `${base}verifier`), listingOf(t, `${base}verifier`), expectReward,
    docOf(t, `${base}verifier/ctrf.json`, 'ctrf report'), provenanceOf(t, `${base}verifier`, verifierStartedAt, recorded));
  artifactsEvidence(list, joinPath(t.dir, `${base}artifacts`), listingOf(t, `${base}artifacts`),
    docOf(t, `${base}artifacts/manifest.json`, 'artifact manifest'));
}

/** steps/<name>/{agent,verifier,artifacts}/ of a multi-step trial, one Evidence with children per step. */
function stepsEvidence(
  list: EvidenceList, t: TrialFiles, result: TrialResult | null, stepNames: readonly string[],
  trajectoryWhy: TrajectoryWhy, rewardWhy: RewardWhy, who: string,
): void {
  const onDisk = listingOf(t, 'steps');
  for (const stepName of stepNames) {
    const sr = result?.step_results?.find((s) => s.step_name === stepName);
    const sub = new EvidenceList(`${who} step ${stepName}`);
    folderEvidence(sub, t, `steps/${stepName}/`, trajectoryWhy(!!sr?.agent_result),
      rewardWhy(!!(sr?.verifier_result || sr?.verifier?.finished_at), sr?.verifier_result?.rewards), sr?.verifier?.started_at ?? null,
      sr?.verifier_result?.rewards);
    list.absorb(sub);
    const present = onDisk.get(stepName) === 'dir';
    list.evidence.push({
      kind: 'step', label: `steps/${stepName}/`, path: joinPath(t.dir, 'steps', stepName), isDir: true, present,
      ...(present ? {} : { namedBy: 'result.json lists this step' }),
      children: sub.evidence,
    });
  }
}

/** The task a trial ran: task_name of the result, else of the config, else the trial name's prefix (before "__"). */
function taskNameOf(name: string, r: ResultRead, config: TrialConfig | null): string {
  return r.result?.task_name ?? r.rawTaskName ?? config?.task?.name ?? (config?.task?.path ? baseName(config.task.path) : null)
    ?? (name.includes('__') ? name.slice(0, name.lastIndexOf('__')) : name);
}

/** Timing, tokens, cost, turns and the result's details on the attempt; a problem when the result names another trial. */
function resultDetails(attempt: AttemptBody, t: TrialFiles, result: TrialResult, dataset: string | null, problems: Problem[]): void {
  attempt.startedAt = result.started_at ?? null;
  attempt.finishedAt = result.finished_at ?? null;
  attempt.durationSec = seconds(result.started_at, result.finished_at);
  const ctxs = result.agent_result ? [result.agent_result] : (result.step_results ?? []).map((s) => s.agent_result);
  const { tokens, cost } = tokensOf(ctxs);
  if (tokens) attempt.tokens = tokens;
  attempt.costUsd = cost;
  const episodes = result.agent_result?.metadata?.n_episodes;
  if (typeof episodes === 'number' && Number.isFinite(episodes)) attempt.nTurns = episodes;
  const d = (attempt.details ??= {});
  d.trial = result.trial_name ?? t.name;
  if (result.id) d.trialId = result.id;
  if (result.agent_info?.version) d.agentVersion = result.agent_info.version;
  if (result.verifier_environment_mode) d.verifierMode = result.verifier_environment_mode;
  if (dataset) d.dataset = dataset;
  const recorded = fileUriToPath(result.trial_uri);
  if (recorded && recorded !== t.dir) d.recordedDir = recorded;
  if (result.trial_name && result.trial_name !== t.name) {
    problems.push({ file: joinPath(t.dir, 'result.json'), severity: 'warning', code: 'name-mismatch',
      message: `trial ${t.name}: result.json names trial ${result.trial_name}, but it is in folder ${t.name}` });
  }
}

/** The job a trial's config names (`job` of TrialRead), when it names one. */
function jobNamed(t: TrialFiles, c: TrialConfig | null | undefined, from: string): Pick<TrialRead, 'job'> {
  const id = typeof c?.job_id === 'string' && c.job_id ? c.job_id : null;
  const trialsDir = typeof c?.trials_dir === 'string' && c.trials_dir ? c.trials_dir : null;
  return id || trialsDir ? { job: { id, trialsDir, file: joinPath(t.dir, from) } } : {};
}

/**
 * The attempt of one trial folder. The trial dir is the one found under the job dir: a recorded `trial_uri`
 * elsewhere (the job folder was moved or copied) is not followed; the recorded location is kept in
 * `details.recordedDir`. `config` is the trial's config.json when it was read (trialResult.ts readConfig).
 */
export function trialFromFiles(
  t: TrialFiles, r: ResultRead, config: { config: TrialConfig | null; problems: Problem[] }, stepNames: readonly string[],
  jobFinished: boolean,
): TrialRead {
  const who = `trial ${t.name}`;
  const result = r.result;
  const cfg = config.config;
  const attempt = r.attempt;
  const problems: Problem[] = [...config.problems, ...r.problems];

  const list = new EvidenceList(who);
  topFileEvidence(list, t, r, jobFinished);
  const agent = agentName(result, cfg);
  const { trajectoryWhy, rewardWhy } = expectations(agent, !!(result?.config?.agent?.import_path ?? cfg?.agent?.import_path));
  if (stepNames.length) stepsEvidence(list, t, result, stepNames, trajectoryWhy, rewardWhy, who);
  const multiStep = !!result?.step_results?.length;
  const rootVerifierRan = !!(result?.verifier_result || result?.verifier?.finished_at) && !multiStep;
  folderEvidence(list, t, '', multiStep ? null : trajectoryWhy(!!result?.agent_result),
    rewardWhy(rootVerifierRan, result?.verifier_result?.rewards), result?.verifier?.started_at ?? null,
    multiStep ? null : result?.verifier_result?.rewards);

  attempt.evidence = list.evidence;
  attempt.missing = list.missing;
  if (list.provenance.length) attempt.provenance = list.provenance;
  if (r.state === 'ok' && (result?.verifier_result || result?.step_results?.length)) {
    // A multi-step trial's reward files are in its steps' verifier folders (the children of each step's evidence).
    let json = false;
    let txt = false;
    const note = (e: Evidence) => {
      if (e.kind !== 'reward-file') return;
      if (e.label === 'reward.json') json = true;
      else if (e.label === 'reward.txt') txt = true;
    };
    for (const e of list.evidence) {
      note(e);
      if (e.children) for (const c of e.children) note(c);
    }
    attempt.rewardMethod = list.provenance.some((p) => p.code === 'reward-details') ? 'rewardkit'
      : json ? 'reward.json' : txt ? 'reward.txt' : null;
  }
  problems.push(...list.problems);
  attempt.dir = t.dir;
  if (r.state !== 'absent') attempt.source = { file: joinPath(t.dir, 'result.json') };

  const dataset = result?.source ?? result?.config?.task?.source ?? cfg?.task?.source ?? null;
  const model = modelName(result, cfg);
  attempt.cell = `${agent ?? '?'}|${model ?? '?'}`;
  if (result) resultDetails(attempt, t, result, dataset, problems);
  else (attempt.details ??= {}).trial = t.name;

  return {
    name: t.name, dir: t.dir, taskName: taskNameOf(t.name, r, cfg), agent, model, dataset,
    startedAt: result?.started_at ?? null,
    hasResult: r.state !== 'absent',
    ...jobNamed(t, result?.config ?? cfg, result?.config ? 'result.json' : 'config.json'),
    attempt, problems,
  };
}
