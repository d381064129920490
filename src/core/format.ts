// How numbers and names of the model read, the same in the tree, the webviews and the CLI: a reward, a kind of run.
import type { SourceKind } from './model';

/**
 * `n` and the word, in the plural unless n is 1: "1 task", "2 tasks", "1 match" / "3 matches" (`many` for a plural
 * that is not the word and an s). `shown` writes the number ("10,000": formatCount). The one plural rule of the tree,
 * the webviews and the CLI.
 */
export function plural(n: number, one: string, many = `${one}s`, shown: (n: number) => string = String): string {
  return `${shown(n)} ${pluralWord(n, one, many)}`;
}

/** The word alone, in the plural unless n is 1 (for a number written elsewhere: "3 of 1 task", "Show 1 more task"). */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/**
 * A whole count as people read it, "10,000": what `toLocaleString('en-US')` writes, without loading the locale data
 * that its first call in a process costs (25–55 ms measured here, on the extension host's thread, while a run is read).
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A reward as people read it: "1.0", "0.333"; "—" when there is none (not measured). */
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
