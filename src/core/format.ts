// How numbers and names of the model read, the same in the tree, the webviews and the CLI: a reward, a kind of run.
import type { SourceKind } from './model';

/** A reward as people read it: "1.0", "0.333"; "—" when there is none (not measured). */
/** `n` and the word, in the plural unless n is 1 ("1 task", "2 tasks"). */
export function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

export function formatReward(r: number | null | undefined): string {
  if (r === null || r === undefined || !Number.isFinite(r)) return '—';
  return Number.isInteger(r) ? r.toFixed(1) : String(Math.round(r * 1000) / 1000);
}

/** What each kind of run folder is called. */
export const RUN_KIND_LABELS: Readonly<Record<SourceKind, string>> = {
  'nemo-gym': 'NeMo Gym',
  'harbor-job': 'Harbor job',
  'viewer-data': 'Viewer data',
};
