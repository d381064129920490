// What the trajectory editor sends first (its "first screen"): the header and one small row per step, so a
// 10,000-step trajectory opens without sending every message. A step's full content is sent when it is shown.
import type { StepView, Totals, TrajectoryView } from './types';

/** Row flags (bits). */
export const ROW = {
  copied: 1, boundary: 2, calls: 4, subagent: 8, logprobs: 16, noModelCall: 32, fileStart: 64, reasoning: 128, media: 256,
} as const;

export interface OutlineRow {
  /** Timeline index. */
  i: number;
  stepId: number | null;
  source: StepView['source'];
  summary: string;
  timestamp: string | null;
  durationMs: number | null;
  completionTokens: number | null;
  flags: number;
}

export interface SubagentRow {
  kind: string;
  ref: string;
  path: string | null;
  step: number | null;
  agent: string | null;
  steps: number;
  unresolved: string | null;
  totals: Totals;
}

/** The view's header as sent: its own fields as they are, metrics as text, files and subagents as rows. */
export interface OutlineHeader extends Pick<TrajectoryView, 'file' | 'pointer' | 'schemaVersion' | 'unreadable' | 'notAtif'
  | 'taskLevel' | 'agent' | 'sessionId' | 'trajectoryId' | 'notes' | 'totals' | 'totalsWithSubagents' | 'disagreements'
  | 'toolCalls' | 'paired' | 'elapsedMs' | 'problems'> {
  finalMetrics: string | null;
  files: { path: string; firstStep: number; steps: number; foldedCopies: number }[];
  subagents: SubagentRow[];
  /** Problems beyond the ones listed (the list is capped). */
  moreProblems: number;
}

export const MAX_PROBLEMS_SENT = 500;

export function rowOf(s: StepView, fileStart: boolean): OutlineRow {
  let flags = 0;
  if (s.copied) flags |= ROW.copied;
  if (s.contextBoundary) flags |= ROW.boundary;
  if (s.toolCalls.length) flags |= ROW.calls;
  if ([...s.toolCalls.flatMap((c) => c.results), ...s.sharedResults].some((r) => r.subagents.length)) flags |= ROW.subagent;
  if (s.logprobs) flags |= ROW.logprobs;
  if (s.llmCallCount === 0) flags |= ROW.noModelCall;
  if (fileStart) flags |= ROW.fileStart;
  if (s.reasoning) flags |= ROW.reasoning;
  if (s.message.some((p) => p.kind !== 'text')) flags |= ROW.media;
  return { i: s.index, stepId: s.stepId, source: s.source, summary: s.summary, timestamp: s.timestamp, durationMs: s.durationMs, completionTokens: s.metrics?.completion_tokens ?? null, flags };
}

/** The rows of the view's steps from `from` on (at most `limit` of them). */
export function rowsOf(v: TrajectoryView, from = 0, limit = Infinity): OutlineRow[] {
  const starts = new Set(v.files.slice(1).map((f) => f.firstStep));
  return v.steps.slice(from, from + limit).map((s) => rowOf(s, starts.has(s.index)));
}

export function outlineOf(v: TrajectoryView): { header: OutlineHeader; rows: OutlineRow[] } {
  return { header: headerOf(v), rows: rowsOf(v) };
}

export function headerOf(v: TrajectoryView): OutlineHeader {
  let finalMetrics: string | null = null;
  if (v.finalMetrics) { try { finalMetrics = JSON.stringify(v.finalMetrics, null, 2); } catch { finalMetrics = '(cannot be shown)'; } }
  return {
    file: v.file, pointer: v.pointer, schemaVersion: v.schemaVersion, unreadable: v.unreadable, notAtif: v.notAtif, taskLevel: v.taskLevel,
    agent: v.agent, sessionId: v.sessionId, trajectoryId: v.trajectoryId, notes: v.notes, finalMetrics,
    totals: v.totals, totalsWithSubagents: v.totalsWithSubagents, disagreements: v.disagreements,
    files: v.files.map((f) => ({ path: f.path, firstStep: f.firstStep, steps: f.steps, foldedCopies: f.foldedCopies })),
    subagents: v.subagents.map((s) => ({ kind: s.kind, ref: s.ref, path: s.path, step: s.step, agent: s.agent, steps: s.steps, unresolved: s.unresolved, totals: s.totals })),
    toolCalls: v.toolCalls, paired: v.paired, elapsedMs: v.elapsedMs,
    problems: v.problems.slice(0, MAX_PROBLEMS_SENT), moreProblems: Math.max(0, v.problems.length - MAX_PROBLEMS_SENT),
  };
}
