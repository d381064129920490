// The one in-memory model every view is fed from: run → task → attempt → evidence.
// Pure data (plain objects, JSON-serialisable): the CLI prints it with --json, the extension adapts it to VS Code.
// Paths are absolute, POSIX-style ("/a/b/c"); `relPath` fields are relative to the run's root.

/** Which kind of run folder a run was read from. */
export type SourceKind = 'nemo-gym' | 'harbor-job' | 'viewer-data';

export const SOURCE_KINDS = ['nemo-gym', 'harbor-job', 'viewer-data'] as const satisfies readonly SourceKind[];

/**
 * How one attempt ended (docs/formats.md#outcomes):
 * - passed / failed: the verifier scored it (reward ≥ PASS_THRESHOLD or not), the agent exited cleanly.
 * - agent-error: the agent failed (non-zero exit, API error, …) and the verifier still scored it ("scored despite an error").
 * - truncated: the agent ran out of time, context or output budget; reward kept when the verifier ran.
 * - infra-error: sandbox / environment / verifier / Gym-side failure, no usable score (never averaged in as a zero).
 * - cancelled: cancelled by the user or the job.
 * - running: no result yet and the run is still going.
 * - incomplete: no result and the run has ended (crashed or interrupted).
 * - missing: selected but no row / trial at all.
 * - no-result: finished without error and without a verifier result (verifier disabled, install-only).
 */
export type Outcome =
  | 'passed'
  | 'failed'
  | 'agent-error'
  | 'truncated'
  | 'infra-error'
  | 'cancelled'
  | 'running'
  | 'incomplete'
  | 'missing'
  | 'no-result';

/** Every outcome, in the order views list them (a tuple, so schemas can be built from it). */
export const OUTCOMES = [
  'passed', 'failed', 'agent-error', 'truncated', 'infra-error', 'cancelled', 'running', 'incomplete', 'missing', 'no-result',
] as const satisfies readonly Outcome[];

/** A reward at or above this counts as a pass (Harbor's 0/1 rewards; NeMo Gym's validate requires ≥ 1.0). */
export const PASS_THRESHOLD = 1.0;

export type Severity = 'error' | 'warning' | 'info';

/** Something wrong with a file: always names the file, and the line (1-based) when there is one. */
export interface Problem {
  file: string;
  line?: number;
  column?: number;
  /** JSON path of the offending value inside `file` (for a summary: ['missing_paths', 0]), to place a diagnostic exactly. */
  jsonPath?: (string | number)[];
  severity: Severity;
  /** Stable machine code, e.g. 'missing-path', 'stale-file', 'parse-error', 'task-source-mismatch', 'incomplete-tail'. */
  code: string;
  message: string;
}

export type EvidenceKind =
  | 'verifier-logs'
  | 'test-stdout'
  | 'reward-file'
  | 'ctrf'
  | 'trajectory'
  | 'artifacts'
  | 'agent-logs'
  | 'trial-log'
  | 'exception'
  | 'result'
  | 'config'
  | 'trace'
  | 'step';

/** One piece of evidence of an attempt: a file or folder, present on disk or flagged missing. */
export interface Evidence {
  kind: EvidenceKind;
  /** What the user sees, usually the file name ("test-stdout.txt"). */
  label: string;
  /** Absolute path. */
  path: string;
  isDir: boolean;
  present: boolean;
  /** Why it is expected, when missing: "rollouts.jsonl line 4 names it", "the verifier ran". */
  namedBy?: string;
  /** For a ctrf.json: the failed tests it lists. */
  failedTests?: { name: string; message?: string }[];
  /**
   * The run's data names a path outside the run's folder: flagged, never read or opened (present is false, and it is
   * not counted as missing).
   */
  outside?: boolean;
  /** For a multi-step trial's step folder: nested evidence of that step. */
  children?: Evidence[];
}

export interface ExceptionSummary {
  type: string;
  message: string;
  /** Where it was recorded: 'trial' or the step name of a multi-step trial. */
  where?: string;
}

export interface FailureDetail {
  kind?: string | null;
  reason?: string | null;
  class?: string | null;
  stage?: string | null;
  terminal?: boolean | null;
}

export interface Tokens {
  input?: number | null;
  cached?: number | null;
  output?: number | null;
}

/**
 * Where an attempt's reward came from, when that is worth a second look (Harbor trials): reward.json and reward.txt
 * both there and disagreeing (the verifier reads reward.json first, so an agent that writes one pre-empts the
 * verifier), a reward file older than the verifier's start (written before the verifier ran: by the agent), or a
 * reward-details.json with per-criterion scores (information, rendered by the dashboard).
 */
export type ProvenanceCode = 'reward-files-disagree' | 'reward-file-vs-result' | 'reward-before-verifier' | 'reward-details';

export interface RewardProvenance {
  code: ProvenanceCode;
  severity: 'warning' | 'info';
  message: string;
  /** The file the finding is about (absolute). */
  file: string;
}

export interface StepSummary {
  name: string;
  reward: number | null;
  rewards?: Record<string, number> | null;
  exception?: ExceptionSummary;
}

export interface Attempt {
  /** Stable across refreshes: `<task id>#<index>` (plus the cell for viewer data). */
  id: string;
  /** 0-based repeat / attempt number as the source numbers it (NeMo `_ng_rollout_index`, viewer `attempt - 1`). */
  index: number;
  /** `#1`, `#2`, … (1-based for people). */
  label: string;
  outcome: Outcome;
  /** Primary reward; `null` means not measured (verifier never ran) — never a zero. */
  reward: number | null;
  /** All reward keys when the verifier gave more than one (reward.json). */
  rewards?: Record<string, number> | null;
  /** The source's own word for how it ended (NeMo: scored / masked / failed / missing). */
  sourceOutcome?: string;
  exception?: ExceptionSummary;
  failure?: FailureDetail;
  startedAt?: string | null;
  finishedAt?: string | null;
  durationSec?: number | null;
  tokens?: Tokens;
  costUsd?: number | null;
  nTurns?: number | null;
  /** Viewer data: the `model|harness` cell this attempt belongs to. Harbor: `agent|model`. */
  cell?: string;
  /** The attempt's own folder (Harbor trial dir, NeMo verifier log folder) when it has one. */
  dir?: string;
  /** Where its row is: "rollouts.jsonl:12". */
  source?: { file: string; line?: number };
  evidence: Evidence[];
  /** Absolute paths of evidence that should be there and is not. */
  missing: string[];
  steps?: StepSummary[];
  /** Health-check verdict (NeMo Gym rollout_verdicts.jsonl) when linked. */
  health?: { verdict: string; checks: string[] };
  /** Extra facts worth a tooltip line (verifier mode, input digest, metadata …). */
  details?: Record<string, string | number | boolean | null>;
  /** Reward provenance findings (Harbor trials), see RewardProvenance. */
  provenance?: RewardProvenance[];
  /** How the reward was decided: viewer data `reward_method` (exact / numeric / llm), Harbor reward file or rewardkit. */
  rewardMethod?: string | null;
}

export interface Task {
  /** Stable id within the run. */
  id: string;
  index?: number;
  label: string;
  attempts: Attempt[];
  details?: Record<string, string | number | boolean | null>;
}

export interface RunFile {
  /** Stable key ('rollouts', 'failures', 'job-config', 'metrics', …). */
  key: string;
  label: string;
  /** Absolute path, or null when the run has no such file. */
  path: string | null;
  present: boolean;
  /** The summary names a path outside the run's folder: flagged, never read, opened or written (present is false). */
  outside?: boolean;
  /** Left by an earlier run under this run's name (stale_files). */
  stale?: boolean;
  isDir?: boolean;
}

export interface NamedReason {
  taskId: string;
  reason: string;
}

export type RunState = 'complete' | 'running' | 'incomplete';

export const RUN_STATES = ['complete', 'running', 'incomplete'] as const satisfies readonly RunState[];

// Each list above names every member of its type (a missing one fails to compile here).
type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
export const LISTS_ARE_COMPLETE: [Covers<Outcome, typeof OUTCOMES[number]>, Covers<SourceKind, typeof SOURCE_KINDS[number]>, Covers<RunState, typeof RUN_STATES[number]>] = [true, true, true];

export interface Run {
  /** Stable id: `<kind>:<absolute path of its anchor file or folder>`. */
  id: string;
  kind: SourceKind;
  /** The folder the run lives in (NeMo: the summary's folder; Harbor: the job dir; viewer: the dataset dir). */
  root: string;
  /** The file or folder that makes it a run (summary / rollouts file, job dir, summary.json). */
  anchor: string;
  /** e.g. "tb-mini · terminus_2 · nemotron" */
  label: string;
  identity: Record<string, string | null>;
  state: RunState;
  startedAt?: string | null;
  finishedAt?: string | null;
  files: RunFile[];
  problems: Problem[];
  unvalidated: NamedReason[];
  skipped: NamedReason[];
  tasks: Task[];
  /** NeMo Gym: the summary file this run was read from, or where it would be written. */
  summaryPath?: string;
  /** NeMo Gym: the rollouts file the summary is for. */
  rolloutsPath?: string;
  /** NeMo Gym: true when the model was built from the rollouts because no summary file exists yet. */
  summaryIsVirtual?: boolean;
  /**
   * NeMo Gym: the rollouts or failures file was modified after the summary was written, so rows added since are not
   * in it (Write Run Summary brings it up to date).
   */
  summaryOutdated?: boolean;
  /** Viewer data training runs: per-step metrics summary. */
  training?: { steps: number; last?: Record<string, number | null> };
  /** Viewer data: the project's per-harness support tier and what does not work (project.json `support`). */
  support?: Record<string, { tier: string; caveats: string[] }>;
  /** Aggregates the source recorded itself (viewer summary.json, Harbor JobStats), for cross-checking. */
  recorded?: Record<string, unknown>;
}

export interface OutcomeCounts {
  total: number;
  byOutcome: Record<Outcome, number>;
  /** Attempts with a non-null reward. */
  measured: number;
  passed: number;
}

export function emptyCounts(): OutcomeCounts {
  const byOutcome = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  return { total: 0, byOutcome, measured: 0, passed: 0 };
}

export function countAttempts(attempts: Iterable<Attempt>, into: OutcomeCounts = emptyCounts()): OutcomeCounts {
  for (const a of attempts) {
    into.total++;
    into.byOutcome[a.outcome]++;
    if (a.reward !== null && a.reward !== undefined) {
      into.measured++;
      if (a.reward >= PASS_THRESHOLD) into.passed++;
    }
  }
  return into;
}

export function countRun(run: Run): OutcomeCounts {
  const c = emptyCounts();
  for (const t of run.tasks) countAttempts(t.attempts, c);
  return c;
}

/** Whether an attempt's reward counts as a pass. */
export function isPass(reward: number | null | undefined): boolean {
  return reward !== null && reward !== undefined && reward >= PASS_THRESHOLD;
}
