// Our recount of a trajectory's tokens and cost (copied-context steps left out, continuations joined, subagents
// added in the "with subagents" figure) and where final_metrics, as recorded, disagrees with it.
import type { Disagreement, StepView, Totals, TrajectoryView } from './types';
import { num, own } from './json';

export function emptyTotals(): Totals {
  return { prompt_tokens: null, completion_tokens: null, cached_tokens: null, cost_usd: null };
}

export function stepTotals(s: StepView): Totals {
  const m = s.metrics;
  if (!m) return emptyTotals();
  return { prompt_tokens: m.prompt_tokens, completion_tokens: m.completion_tokens, cached_tokens: m.cached_tokens, cost_usd: m.cost_usd };
}

const add = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : a + b);

export function addTotals(a: Totals, b: Totals): Totals {
  return {
    prompt_tokens: add(a.prompt_tokens, b.prompt_tokens),
    completion_tokens: add(a.completion_tokens, b.completion_tokens),
    cached_tokens: add(a.cached_tokens, b.cached_tokens),
    cost_usd: add(a.cost_usd, b.cost_usd),
  };
}

const FIELDS: [keyof Totals, string][] = [
  ['prompt_tokens', 'total_prompt_tokens'], ['completion_tokens', 'total_completion_tokens'],
  ['cached_tokens', 'total_cached_tokens'], ['cost_usd', 'total_cost_usd'],
];

function same(field: Disagreement['field'], a: number, b: number): boolean {
  return field === 'cost_usd' ? Math.abs(a - b) <= Math.max(1e-9, Math.abs(b) * 1e-6) : a === b;
}

/**
 * final_metrics as recorded (summed over the timeline's files when continuations carry their own) against the
 * recount. A field agrees when it equals the recount with or without subagents (Harbor's total_cost_usd includes
 * them; token totals may or may not).
 */
export function disagreements(view: TrajectoryView): Disagreement[] {
  const out: Disagreement[] = [];
  const recorded = (key: string): number | null => {
    let sum: number | null = null;
    for (const f of view.files) {
      const v = f.finalMetrics ? num(own(f.finalMetrics, key)) : null;
      if (v !== null) sum = (sum ?? 0) + v;
    }
    return sum;
  };
  for (const [field, key] of FIELDS) {
    const r = recorded(key);
    // A recount of null (no step carries the figure) is unknown, not zero: nothing to compare.
    if (r === null || view.totalsWithSubagents[field] === null) continue;
    const own0 = view.totals[field] ?? 0;
    const all = view.totalsWithSubagents[field] ?? 0;
    if (!same(field, own0, r) && !same(field, all, r)) out.push({ field, recorded: r, recount: own0, recountWithSubagents: all });
  }
  const steps = recorded('total_steps');
  if (steps !== null) {
    const ownSteps = view.files.reduce((n, f) => n + f.steps + f.foldedCopies, 0);
    const timeline = view.steps.length;
    if (steps !== timeline && steps !== ownSteps && steps !== view.steps.filter((s) => !s.copied).length) {
      out.push({ field: 'steps', recorded: steps, recount: timeline, recountWithSubagents: timeline });
    }
  }
  return out;
}
