// The trajectory view model: one ATIF trajectory (with its continuations joined and its subagents resolved) as the
// viewer, the Runs tree and the CLI show it. Pure data (no functions, no class instances), so the host can send parts
// of it to the webview as they are.

export type Severity = 'error' | 'warning' | 'info';

/** Something in the data that is wrong or could not be followed: the file, a JSON pointer into it, and why. */
export interface Problem {
  file: string;
  /** RFC 6901 pointer into `file` ("" = the whole document). */
  pointer: string;
  severity: Severity;
  message: string;
}

/** Token and cost totals (prompt includes cached). null = no step said. */
export interface Totals {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cached_tokens: number | null;
  cost_usd: number | null;
}

/** One field of final_metrics beside our recount, when they disagree. */
export interface Disagreement {
  field: 'prompt_tokens' | 'completion_tokens' | 'cached_tokens' | 'cost_usd' | 'steps';
  recorded: number;
  recount: number;
  /** The recount including subagents (what total_cost_usd is meant to hold). */
  recountWithSubagents: number;
}

export type PartView =
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'audio'; mediaType: string; path: string; durationSec?: number }
  | { kind: 'unsupported'; type: string };

/** A tool call and what answered it (observation results whose source_call_id names it). */
export interface ToolCallView {
  id: string;
  name: string;
  /** The arguments as pretty JSON. */
  args: string;
  extra: string | null;
  results: ResultView[];
}

export interface ResultView {
  /** Index in observation.results (for the JSON pointer). */
  index: number;
  sourceCallId: string | null;
  parts: PartView[];
  extra: string | null;
  /** Indexes into TrajectoryView.subagents of the refs this result holds. */
  subagents: number[];
}

export interface LogprobSummary {
  count: number;
  mean: number;
  min: number;
  /** Perplexity: exp(-mean). */
  perplexity: number;
  /** Share of tokens with probability below 0.5 / 0.1. */
  below50: number;
  below10: number;
  /** Histogram of probabilities (exp(logprob)) in 10 buckets [0, 0.1) … [0.9, 1]. */
  histogram: number[];
}

export interface StepMetricsView {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cached_tokens: number | null;
  reasoning_tokens: number | null;
  cost_usd: number | null;
  extra: string | null;
}

export interface ContextBoundary {
  type: string;
  boundary: string;
}

export interface StepView {
  /** Position on the joined timeline (0-based). */
  index: number;
  /** Which file of the timeline it comes from (index into TrajectoryView.files). */
  file: number;
  /** JSON pointer of the step in its file. */
  pointer: string;
  stepId: number | null;
  source: 'system' | 'user' | 'agent' | 'unknown';
  timestamp: string | null;
  /** Milliseconds since the step before (both timestamps present and in order), else null — shown as "—". */
  durationMs: number | null;
  modelName: string | null;
  reasoningEffort: string | null;
  message: PartView[];
  reasoning: string | null;
  toolCalls: ToolCallView[];
  /** Observation results without a call id (a batch's shared output) or naming no call of the step. */
  sharedResults: ResultView[];
  metrics: StepMetricsView | null;
  /** llm_call_count as recorded; 0 = no model call. */
  llmCallCount: number | null;
  copied: boolean;
  contextBoundary: ContextBoundary | null;
  logprobs: LogprobSummary | null;
  hasTokenIds: boolean;
  extra: string | null;
  /** One line for the step list. */
  summary: string;
}

/** One file of the joined timeline: the trajectory itself, then each continuation. */
export interface TimelineFile {
  path: string;
  /** Timeline index of its first own step (the marker). */
  firstStep: number;
  steps: number;
  /** Copied-context steps that repeat earlier steps of the timeline, folded into the marker. */
  foldedCopies: number;
  schemaVersion: string | null;
  finalMetrics: Record<string, unknown> | null;
}

export type SubagentRefKind = 'path' | 'id' | 'session' | 'embedded';

export interface SubagentView {
  kind: SubagentRefKind;
  /** trajectory_path, trajectory_id or session_id as written. */
  ref: string;
  /** The file it resolved to (with "#/pointer" for an embedded one), or null. */
  path: string | null;
  /** Timeline index of the step that references it; null for an embedded one no step names. */
  step: number | null;
  /** Why it did not resolve. */
  unresolved: string | null;
  agent: string | null;
  steps: number;
  totals: Totals;
  /** The subagent's own view (nested), when resolved and within the depth bound. */
  view: TrajectoryView | null;
}

export interface NotAtif {
  /** What the document looks like instead ("mini-swe-agent trajectory", "JSON array", …). */
  looksLike: string;
  detail: string;
}

export interface TrajectoryView {
  file: string;
  /** Embedded subagent trajectories: the pointer inside `file`; "" for a whole file. */
  pointer: string;
  schemaVersion: string | null;
  /** Why the file could not be read or parsed as JSON at all; null when it was. */
  unreadable: string | null;
  /** null when the document is ATIF (or could not be read). */
  notAtif: NotAtif | null;
  /** A task's seed trajectory (beside instruction.md), not an attempt's own. */
  taskLevel: boolean;
  agent: { name: string | null; version: string | null; model: string | null; toolDefinitions: number };
  sessionId: string | null;
  trajectoryId: string | null;
  notes: string | null;
  finalMetrics: Record<string, unknown> | null;
  files: TimelineFile[];
  steps: StepView[];
  toolCalls: number;
  paired: number;
  totals: Totals;
  totalsWithSubagents: Totals;
  disagreements: Disagreement[];
  subagents: SubagentView[];
  /** First to last timestamp on the timeline, when both exist and are in order. */
  elapsedMs: number | null;
  problems: Problem[];
}
