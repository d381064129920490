// Case-insensitive text search over a trajectory's steps: messages, reasoning, tool arguments and observations.
// The lower-cased text of each step is built once (lazily, on the first search) so each query is one indexOf scan.
import type { StepView, TrajectoryView } from './types';
import { partsText } from './steps';

export type SearchField = 'message' | 'reasoning' | 'tool' | 'observation';
export const SEARCH_FIELDS: readonly SearchField[] = ['message', 'reasoning', 'tool', 'observation'];

export interface StepMatch {
  index: number;
  /** Occurrences in this step (all fields). */
  count: number;
  fields: SearchField[];
}

export interface SearchResult {
  query: string;
  /** Occurrences over the whole timeline. */
  total: number;
  steps: StepMatch[];
}

/** The text of one field of a step, as searched and as shown. */
export function fieldText(s: StepView, f: SearchField): string {
  switch (f) {
    case 'message': return partsText(s.message);
    case 'reasoning': return s.reasoning ?? '';
    case 'tool': return s.toolCalls.map((c) => `${c.name}\n${c.args}`).join('\n');
    case 'observation': return [...s.toolCalls.flatMap((c) => c.results), ...s.sharedResults].map((r) => partsText(r.parts)).join('\n');
  }
}

function countIn(hay: string, needle: string, cap: number): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at !== -1 && n < cap; at = hay.indexOf(needle, at + needle.length)) n++;
  return n;
}

export class TrajectorySearch {
  private index: string[][] = [];
  private of: StepView[] | null = null;

  constructor(private readonly view: TrajectoryView) {}

  /**
   * Builds the lower-cased text of every step not indexed yet (done by each search; a view that grows while it is
   * read is indexed as it grows, a view whose steps were replaced is indexed again).
   */
  build(): void {
    const steps = this.view.steps;
    if (this.of !== steps) { this.index = []; this.of = steps; }
    for (let i = this.index.length; i < steps.length; i++) this.index.push(SEARCH_FIELDS.map((f) => fieldText(steps[i], f).toLowerCase()));
  }

  /** Every step matching `query` (case-insensitive, literal); counts capped at `cap` per field. */
  search(query: string, cap = 10_000): SearchResult {
    const q = query.toLowerCase();
    const out: SearchResult = { query, total: 0, steps: [] };
    if (!q) return out;
    this.build();
    const idx = this.index;
    for (let i = 0; i < idx.length; i++) {
      const fields = idx[i];
      let count = 0;
      let hit: SearchField[] | null = null;
      for (let f = 0; f < fields.length; f++) {
        if (fields[f].length < q.length) continue;
        const n = countIn(fields[f], q, cap);
        if (n) { count += n; (hit ??= []).push(SEARCH_FIELDS[f]); }
      }
      if (hit) { out.steps.push({ index: i, count, fields: hit }); out.total += count; }
    }
    return out;
  }
}
