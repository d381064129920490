// A Harbor trial's result.json and config.json, as read (trialFiles.ts): the parsed result and what it says about
// the attempt's outcome, reward and exception; the config only when the result does not carry it.
import type { Problem } from '../../model';
import { classifyMissingResult, classifyParsedTrial, classifyTrial } from '../../outcome';
import { TrialConfigSchema, TrialResultSchema, type TrialConfig, type TrialResult } from '../../schemas/harbor';
import { safeParsePlain } from '../../schemas/plainCheck';
import { issueProblems, jsonDocumentOf, problemAt } from '../jsonFile';
import type { AttemptBody } from './trial';
import { joinPath } from './paths';
import type { TrialFiles } from './trialFiles';

export interface ResultRead {
  /** absent: no result.json (running or interrupted); bad-json: unreadable or not JSON; invalid: wrong types. */
  state: 'absent' | 'bad-json' | 'invalid' | 'ok';
  result: TrialResult | null;
  /** task_name of a result whose other fields have the wrong types (still used to place the trial). */
  rawTaskName: string | null;
  /** Outcome, reward(s), exception and steps of the attempt, as far as the result says. */
  attempt: AttemptBody;
  problems: Problem[];
}

/**
 * Reads the trial's result.json (when stage 1 found it): its outcome is the attempt's. Its text is let go (taken out
 * of `t.files`) once parsed: nothing after reads it, and held until the batch is built 10,000 texts outlived the
 * young generation (harbor-10k).
 */
export function readResult(t: TrialFiles, jobFinished: boolean): ResultRead {
  const attempt: AttemptBody = { outcome: classifyMissingResult(jobFinished), reward: null, evidence: [], missing: [] };
  const out: ResultRead = { state: 'absent', result: null, rawTaskName: null, attempt, problems: [] };
  const read = t.files.get('result.json');
  if (!read) return out;
  const resultPath = joinPath(t.dir, 'result.json');
  const doc = jsonDocumentOf(resultPath, read, 'trial result', 'error');
  t.files.delete('result.json');
  if (!doc.ok) {
    out.state = 'bad-json';
    // A result that does not parse while the job runs is probably being written; once it ended, nothing scores.
    out.problems.push(...doc.problems.map((p) => (jobFinished ? p : { ...p, severity: 'warning' as const })));
    attempt.outcome = jobFinished ? 'infra-error' : 'running';
    if (jobFinished) attempt.exception = { type: 'InvalidResult', message: doc.cutOff ? 'result.json is cut off mid-file: not valid JSON' : 'result.json is not valid JSON', where: 'trial' };
    return out;
  }
  out.problems.push(...doc.problems); // what parsing said (a BOM, bytes that are not UTF-8, duplicate keys, 1e400)
  // The result's objects are read by their keys, never listed (Harbor writes a config's keys in another order than
  // the schema's): one that plainly passes is taken as it is, without zod's copy (schemas/plainCheck.ts).
  const parsed = safeParsePlain(TrialResultSchema, doc.value, false);
  if (parsed.success) {
    out.state = 'ok';
    out.result = parsed.data;
    const c = classifyParsedTrial(parsed.data);
    attempt.outcome = c.outcome;
    attempt.reward = c.reward;
    if (c.rewards) attempt.rewards = c.rewards;
    if (c.exception) attempt.exception = c.exception;
    if (c.steps) attempt.steps = c.steps;
    if (c.category) (attempt.details ??= {}).exceptionCategory = c.category;
    return out;
  }
  out.state = 'invalid';
  // Identity fields that still have the right type are used to place the trial; nothing is scored.
  const raw = doc.value && typeof doc.value === 'object' ? (doc.value as Record<string, unknown>) : {};
  if (typeof raw.task_name === 'string') out.rawTaskName = raw.task_name;
  const c = classifyTrial(doc.value, { jobFinished });
  attempt.outcome = c.outcome;
  if (c.exception) attempt.exception = { ...c.exception, where: 'trial' };
  out.problems.push(problemAt(doc, c.invalid?.path ?? [], 'error', 'invalid-result',
    `trial ${t.name}: result.json cannot be trusted to score (${c.invalid?.message ?? 'wrong types'})`));
  return out;
}

/**
 * Whether config.json must be read: the result records the trial's config (`config`), so only a trial without a
 * usable result (running, interrupted, unreadable) or whose result lacks it needs the file.
 */
export function needsConfigFile(r: ResultRead): boolean {
  return !r.result?.config;
}

/** The trial's config.json (lenient: written with exclude_defaults), when it was read. */
export function readConfig(t: TrialFiles): { config: TrialConfig | null; problems: Problem[] } {
  const read = t.files.get('config.json');
  if (!read) return { config: null, problems: [] };
  const doc = jsonDocumentOf(joinPath(t.dir, 'config.json'), read, 'trial config', 'warning');
  if (!doc.ok) return { config: null, problems: doc.problems };
  const p = safeParsePlain(TrialConfigSchema, doc.value, false); // read by its keys, as the result
  if (p.success) return { config: p.data, problems: doc.problems };
  return { config: null, problems: [...doc.problems, ...issueProblems(doc, p.error.issues, 'trial config.json', 5)] };
}
