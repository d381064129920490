// One Harbor trial dir → the attempt it is (without its place in the task: id, index and label come later).
import type { FsPort } from '../../fs/port';
import type { Attempt, Problem, Tokens } from '../../model';
import { classifyMissingResult, classifyParsedTrial, classifyTrial } from '../../outcome';
import {
  TrialConfigSchema, TrialResultSchema, type AgentContext, type TrialConfig, type TrialResult,
} from '../../schemas/harbor';
import { issueProblems, problemAt, readJsonDocument } from '../jsonFile';
import { EvidenceList, agentEvidence, artifactsEvidence, listDir, verifierEvidence, writesTrajectory } from './evidence';
import { baseName, fileUriToPath, joinPath } from './paths';

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
  attempt: AttemptBody;
  problems: Problem[];
}

function seconds(a: string | null | undefined, b: string | null | undefined): number | null {
  if (!a || !b) return null;
  const d = (Date.parse(b) - Date.parse(a)) / 1000;
  return Number.isFinite(d) && d >= 0 ? d : null;
}

function tokensOf(ctxs: (AgentContext | null | undefined)[]): { tokens?: Tokens; cost: number | null } {
  const sum = (get: (c: AgentContext) => number | null | undefined): number | null => {
    let total: number | null = null;
    for (const c of ctxs) {
      const v = c ? get(c) : null;
      if (typeof v === 'number' && Number.isFinite(v)) total = (total ?? 0) + v;
    }
    return total;
  };
  const input = sum((c) => c.n_input_tokens);
  const cached = sum((c) => c.n_cache_tokens);
  const output = sum((c) => c.n_output_tokens);
  const cost = sum((c) => c.cost_usd);
  const any = input !== null || cached !== null || output !== null;
  return { ...(any ? { tokens: { input, cached, output } } : {}), cost };
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

/**
 * Reads `<jobDir>/<name>/`. The trial dir is the one found under the job dir: a recorded `trial_uri` elsewhere (the job
 * folder was moved or copied) is not followed; the trial is located by its `trial_name` under the job dir, and the
 * recorded location is kept in `details.recordedDir`.
 */
export async function readTrial(fs: FsPort, jobDir: string, name: string, jobFinished: boolean): Promise<TrialRead> {
  const scanned = joinPath(jobDir, name);
  const entries = await listDir(fs, scanned);
  const problems: Problem[] = [];
  const who = `trial ${name}`;

  // config.json (lenient: written with exclude_defaults).
  let config: TrialConfig | null = null;
  const configPath = joinPath(scanned, 'config.json');
  if (entries.get('config.json') === 'file') {
    const doc = await readJsonDocument(fs, configPath, 'trial config', 'warning');
    problems.push(...doc.problems);
    if (doc.ok) {
      const p = TrialConfigSchema.safeParse(doc.value);
      if (p.success) config = p.data;
      else problems.push(...issueProblems(doc, p.error.issues, 'trial config.json', 5));
    }
  }

  // result.json: written last; its absence means running or interrupted.
  const resultPath = joinPath(scanned, 'result.json');
  let result: TrialResult | null = null;
  let resultState: 'absent' | 'bad-json' | 'invalid' | 'ok' = 'absent';
  let rawTaskName: string | null = null;
  const attempt: AttemptBody = { outcome: classifyMissingResult(jobFinished), reward: null, evidence: [], missing: [] };
  if (entries.get('result.json') === 'file') {
    const doc = await readJsonDocument(fs, resultPath, 'trial result', 'error');
    if (!doc.ok) {
      resultState = 'bad-json';
      // A result that does not parse while the job runs is probably being written; once it ended, nothing scores.
      problems.push(...doc.problems.map((p) => (jobFinished ? p : { ...p, severity: 'warning' as const })));
      attempt.outcome = jobFinished ? 'infra-error' : 'running';
      if (jobFinished) attempt.exception = { type: 'InvalidResult', message: 'result.json is not valid JSON', where: 'trial' };
    } else {
      const parsed = TrialResultSchema.safeParse(doc.value);
      if (parsed.success) {
        resultState = 'ok';
        result = parsed.data;
        const c = classifyParsedTrial(result);
        attempt.outcome = c.outcome;
        attempt.reward = c.reward;
        if (c.rewards) attempt.rewards = c.rewards;
        if (c.exception) attempt.exception = c.exception;
        if (c.steps) attempt.steps = c.steps;
        if (c.category) (attempt.details ??= {}).exceptionCategory = c.category;
      } else {
        resultState = 'invalid';
        // Identity fields that still have the right type are used to place the trial; nothing is scored.
        const raw = doc.value && typeof doc.value === 'object' ? (doc.value as Record<string, unknown>) : {};
        if (typeof raw.task_name === 'string') rawTaskName = raw.task_name;
        const c = classifyTrial(doc.value, { jobFinished });
        attempt.outcome = c.outcome;
        if (c.exception) attempt.exception = { ...c.exception, where: 'trial' };
        const path = c.invalid?.path ?? [];
        problems.push(problemAt(doc, path, 'error', 'invalid-result',
          `${who}: result.json cannot be trusted to score (${c.invalid?.message ?? 'wrong types'})`));
      }
    }
  }

  const list = new EvidenceList(who);
  if (resultState !== 'absent') list.present('result', 'result.json', resultPath);
  else if (jobFinished) list.absent('result', 'result.json', resultPath, 'the job finished and this trial has no result');
  if (entries.get('config.json') === 'file') list.present('config', 'config.json', configPath);
  if (entries.get('lock.json') === 'file') list.present('config', 'lock.json', joinPath(scanned, 'lock.json'));
  if (entries.get('trial.log') === 'file') list.present('trial-log', 'trial.log', joinPath(scanned, 'trial.log'));
  if (entries.get('user-agent') === 'dir') list.present('agent-logs', 'user-agent/', joinPath(scanned, 'user-agent'), true);
  const exPath = joinPath(scanned, 'exception.txt');
  if (entries.get('exception.txt') === 'file') list.present('exception', 'exception.txt', exPath);
  else if (result?.exception_info) {
    list.absent('exception', 'exception.txt', exPath, `result.json records ${result.exception_info.exception_type}`);
  }

  const agent = agentName(result, config);
  const customAgent = !!(result?.config?.agent?.import_path ?? config?.agent?.import_path);
  const atif = writesTrajectory(agent) && !customAgent;
  const trajectoryWhy = (ran: boolean) => (ran && atif ? `agent ${agent} ran and writes an ATIF trajectory` : null);
  const rewardWhy = (verifierRan: boolean, rewards: Record<string, number> | null | undefined) =>
    verifierRan
      ? { why: 'the verifier ran', file: rewards && Object.keys(rewards).some((k) => k !== 'reward') ? 'reward.json' : 'reward.txt' }
      : null;

  if (result?.step_results?.length || entries.get('steps') === 'dir') {
    await readSteps(fs, list, scanned, result, trajectoryWhy, rewardWhy, who);
  }
  const rootVerifierRan = !!(result?.verifier_result || result?.verifier?.finished_at) && !result?.step_results?.length;
  await agentEvidence(fs, list, joinPath(scanned, 'agent'), result?.step_results?.length ? null : trajectoryWhy(!!result?.agent_result));
  await verifierEvidence(fs, list, joinPath(scanned, 'verifier'), rewardWhy(rootVerifierRan, result?.verifier_result?.rewards),
    result?.verifier?.started_at ?? null);
  await artifactsEvidence(fs, list, joinPath(scanned, 'artifacts'));

  attempt.evidence = list.evidence;
  attempt.missing = list.missing;
  if (list.provenance.length) attempt.provenance = list.provenance;
  if (resultState === 'ok' && attempt.reward !== null) {
    const files = new Set(list.evidence.filter((e) => e.kind === 'reward-file').map((e) => e.label));
    attempt.rewardMethod = list.provenance.some((p) => p.code === 'reward-details') ? 'rewardkit'
      : files.has('reward.json') ? 'reward.json' : files.has('reward.txt') ? 'reward.txt' : null;
  }
  problems.push(...list.problems);
  attempt.dir = scanned;
  if (resultState !== 'absent') attempt.source = { file: resultPath };

  const dataset = result?.source ?? result?.config?.task?.source ?? config?.task?.source ?? null;
  const taskName = result?.task_name ?? rawTaskName ?? config?.task?.name ?? (config?.task?.path ? baseName(config.task.path) : null)
    ?? (name.includes('__') ? name.slice(0, name.lastIndexOf('__')) : name);
  const model = modelName(result, config);
  attempt.cell = `${agent ?? '?'}|${model ?? '?'}`;

  if (result) {
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
    d.trial = result.trial_name ?? name;
    if (result.id) d.trialId = result.id;
    if (result.agent_info?.version) d.agentVersion = result.agent_info.version;
    if (result.verifier_environment_mode) d.verifierMode = result.verifier_environment_mode;
    if (dataset) d.dataset = dataset;
    const recorded = fileUriToPath(result.trial_uri);
    if (recorded && recorded !== scanned) d.recordedDir = recorded;
    if (result.trial_name && result.trial_name !== name) {
      problems.push({ file: resultPath, severity: 'warning', code: 'name-mismatch',
        message: `${who}: result.json names trial ${result.trial_name}, but it is in folder ${name}` });
    }
  } else {
    (attempt.details ??= {}).trial = name;
  }

  return {
    name, dir: scanned, taskName, agent, model, dataset,
    startedAt: result?.started_at ?? null,
    hasResult: resultState !== 'absent',
    attempt, problems,
  };
}

/** steps/<name>/{agent,verifier,artifacts}/ of a multi-step trial, one Evidence with children per step. */
async function readSteps(
  fs: FsPort,
  list: EvidenceList,
  trialDir: string,
  result: TrialResult | null,
  trajectoryWhy: (ran: boolean) => string | null,
  rewardWhy: (ran: boolean, rewards: Record<string, number> | null | undefined) => { why: string; file: string } | null,
  who: string,
): Promise<void> {
  const stepsDir = joinPath(trialDir, 'steps');
  const onDisk = await listDir(fs, stepsDir);
  const names: string[] = (result?.step_results ?? []).map((s) => s.step_name);
  for (const [n, t] of onDisk) if (t === 'dir' && !names.includes(n)) names.push(n);
  for (const stepName of names) {
    const sr = result?.step_results?.find((s) => s.step_name === stepName);
    const dir = joinPath(stepsDir, stepName);
    const sub = new EvidenceList(`${who} step ${stepName}`);
    await agentEvidence(fs, sub, joinPath(dir, 'agent'), trajectoryWhy(!!sr?.agent_result));
    await verifierEvidence(fs, sub, joinPath(dir, 'verifier'),
      rewardWhy(!!(sr?.verifier_result || sr?.verifier?.finished_at), sr?.verifier_result?.rewards), sr?.verifier?.started_at ?? null);
    await artifactsEvidence(fs, sub, joinPath(dir, 'artifacts'));
    list.absorb(sub);
    const present = onDisk.get(stepName) === 'dir';
    list.evidence.push({
      kind: 'step', label: `steps/${stepName}/`, path: dir, isDir: true, present,
      ...(present ? {} : { namedBy: 'result.json lists this step' }),
      children: sub.evidence,
    });
  }
}
