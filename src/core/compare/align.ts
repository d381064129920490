// Two attempts' trajectories aligned step by step (docs/compare.md#attempts): each step gets a key — a step with tool
// calls by its source and each call's function name and arguments, any other step by its source and message text —
// the keys are interned as integers and aligned by the longest common subsequence (Myers, ./diff.ts). What is left
// between two matches is paired as "changed" where both sides have a step of the same source, else listed on its
// side. The first row that is not the same is the first divergence. Either side may have no trajectory.
import type { StepView, TrajectoryView } from '../trajectory/types';
import { commonSubsequence } from './diff';

export type RowKind = 'same' | 'changed' | 'left' | 'right';

export interface AlignedRow {
  kind: RowKind;
  /** Step index on each side (StepView.index), null where that side has no step in this row. */
  left: number | null;
  right: number | null;
}

/** What the step list shows of one step, on either side. */
export interface StepBrief {
  index: number;
  source: StepView['source'];
  summary: string;
  /** Function names of its tool calls. */
  tools: string[];
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number | null;
  durationMs: number | null;
}

export interface SideTrajectory {
  /** The trajectory file, or null when the attempt has none. */
  file: string | null;
  /** Why there are no steps to align on this side (no trajectory, unreadable, not ATIF); null when there are. */
  unavailable: string | null;
  steps: StepBrief[];
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number | null;
  elapsedMs: number | null;
}

export interface Divergence {
  /** Row index in `rows`. */
  row: number;
  left: number | null;
  right: number | null;
}

export interface TrajectoryAlignment {
  left: SideTrajectory;
  right: SideTrajectory;
  rows: AlignedRow[];
  /** The first row that is not the same on both sides; null when the trajectories align completely (or a side is unavailable). */
  firstDivergence: Divergence | null;
  counts: Record<RowKind, number>;
}

function text(parts: StepView['message']): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : p.kind === 'unsupported' ? `[${p.type}]` : `[${p.kind} ${p.path}]`)).join('\n');
}

/** The key two steps must share to be aligned as the same step. */
export function stepKey(s: StepView): string {
  if (s.toolCalls.length) return `${s.source}\u0000tools\u0000${s.toolCalls.map((c) => `${c.name}\u0001${c.args}`).join('\u0002')}`;
  return `${s.source}\u0000message\u0000${text(s.message)}`;
}

/** Integer ids of the keys of both lists (equal keys get equal ids). */
export function internKeys(left: readonly string[], right: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const idOf = (k: string) => { let v = ids.get(k); if (v === undefined) { v = ids.size; ids.set(k, v); } return v; };
  return [Int32Array.from(left, idOf), Int32Array.from(right, idOf)];
}

/** Rows of the alignment of two key lists (steps numbered 0…n-1 on each side); `sourceL/R` decide what may pair as changed. */
export function alignKeys(left: ArrayLike<number>, right: ArrayLike<number>, sourceL: (i: number) => string, sourceR: (j: number) => string): AlignedRow[] {
  const m = commonSubsequence(left, right);
  const rows: AlignedRow[] = [];
  let i = 0, j = 0;
  const gap = (iEnd: number, jEnd: number) => {
    while (i < iEnd || j < jEnd) {
      if (i < iEnd && j < jEnd && sourceL(i) === sourceR(j)) rows.push({ kind: 'changed', left: i++, right: j++ });
      else if (i < iEnd && (j >= jEnd || iEnd - i >= jEnd - j)) rows.push({ kind: 'left', left: i++, right: null });
      else rows.push({ kind: 'right', left: null, right: j++ });
    }
  };
  for (let n = 0; n < m.left.length; n++) {
    gap(m.left[n], m.right[n]);
    rows.push({ kind: 'same', left: i++, right: j++ });
  }
  gap(left.length, right.length);
  return rows;
}

function brief(s: StepView): StepBrief {
  return {
    index: s.index, source: s.source, summary: s.summary, tools: s.toolCalls.map((c) => c.name),
    promptTokens: s.metrics?.prompt_tokens ?? null, completionTokens: s.metrics?.completion_tokens ?? null,
    costUsd: s.metrics?.cost_usd ?? null, durationMs: s.durationMs,
  };
}

/** Why a view has no steps to align, or null when it has. */
function unavailable(v: TrajectoryView | null, reason?: string): string | null {
  if (!v) return reason ?? 'no trajectory';
  if (v.unreadable) return `trajectory unreadable: ${v.unreadable}`;
  if (v.notAtif) return `not an ATIF trajectory (${v.notAtif.looksLike})`;
  return null;
}

function sideOf(v: TrajectoryView | null, reason?: string): SideTrajectory {
  const why = unavailable(v, reason);
  return {
    file: v?.file ?? null, unavailable: why, steps: why || !v ? [] : v.steps.map(brief),
    promptTokens: v?.totals.prompt_tokens ?? null, completionTokens: v?.totals.completion_tokens ?? null,
    costUsd: v?.totals.cost_usd ?? null, elapsedMs: v?.elapsedMs ?? null,
  };
}

/**
 * Aligns two trajectories (null: the attempt has none; `reasons` says why, e.g. "no agent/trajectory.json").
 * A side without steps lists the other side's steps on their own, with no divergence when it is unavailable.
 */
export function alignTrajectories(left: TrajectoryView | null, right: TrajectoryView | null, reasons: { left?: string; right?: string } = {}): TrajectoryAlignment {
  const L = sideOf(left, reasons.left);
  const R = sideOf(right, reasons.right);
  const ls = L.unavailable ? [] : left!.steps;
  const rs = R.unavailable ? [] : right!.steps;
  const [ka, kb] = internKeys(ls.map(stepKey), rs.map(stepKey));
  const rows = alignKeys(ka, kb, (i) => ls[i].source, (j) => rs[j].source);
  const counts: Record<RowKind, number> = { same: 0, changed: 0, left: 0, right: 0 };
  let first: Divergence | null = null;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    counts[row.kind]++;
    if (!first && row.kind !== 'same') first = { row: r, left: row.left, right: row.right };
  }
  return { left: L, right: R, rows, firstDivergence: L.unavailable || R.unavailable ? null : first, counts };
}
