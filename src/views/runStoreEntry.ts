// What the run store keeps of each run it read (an Entry), and the questions asked of entries when files change:
// which folders concern a run, which trial folders of a Harbor job a change lies in, whether a path can make a run
// appear. Pure functions over entries, beside src/views/runStore.ts, which holds them and decides when to read.
import type { Run } from '../core/model';
import { type DiscoveryReport, type RunCandidate, describeCap, describeLink } from '../core/discovery';
import { type HarborJobState, trialFolderOf } from '../core/readers/harborJob';
import { dirname, isWithin as within } from '../core/paths';

export interface Entry {
  run: Run;
  candidate: RunCandidate;
  folder: string;
  /** Folders whose changes concern this run (its root, the folders of its files and attempt folders). */
  prefixes: string[];
  /** When the run was read (ms since the epoch) and how long that took: a big run is not re-read back to back. */
  readAt: number;
  readMs: number;
  /** A Harbor job as read, trial by trial: a change inside a few trial folders re-reads only those. */
  harbor?: HarborJobState;
}

export function attemptCount(run: Run): number {
  let n = 0;
  for (const t of run.tasks) n += t.attempts.length;
  return n;
}

export function candidateKey(c: RunCandidate): string {
  return `${c.kind}:${c.anchor}`;
}

export function prefixesOf(run: Run): string[] {
  const set = new Set<string>([run.root, dirname(run.anchor)]);
  for (const f of run.files) if (f.path) set.add(f.isDir ? f.path : dirname(f.path));
  for (const t of run.tasks) {
    for (const a of t.attempts) {
      if (a.dir) set.add(dirname(a.dir));
    }
  }
  // Keep only the outermost folders.
  const sorted = [...set].sort((a, b) => a.length - b.length);
  const out: string[] = [];
  for (const p of sorted) if (!out.some((q) => within(p, q))) out.push(p);
  return out;
}

/** The trial folders of a Harbor job the changed paths lie in; undefined when one is not in a trial folder. */
export function trialsChanged(e: Entry, paths: readonly string[]): string[] | undefined {
  if (!e.harbor) return undefined;
  const names = new Set<string>();
  for (const p of paths) {
    const name = trialFolderOf(e.harbor, p);
    if (name === undefined) return undefined;
    names.add(name);
  }
  return [...names];
}

/** Names that can make a new run appear (a new summary, rollouts file, job or viewer data). */
const RUN_MAKERS = /(\.jsonl|_run_summary\.json|\/result\.json|\/config\.json|\/summary\.json|\/project\.json|\/run\.json)$/;

/** Whether a changed path can make a run appear or go that is not simply a re-read of the runs it lies in. */
export function mayMakeRun(entries: Iterable<Entry>, p: string, insideKnownRun: boolean): boolean {
  for (const e of entries) {
    const r = e.run;
    if (r.anchor === p || r.rolloutsPath === p || r.summaryPath === p || r.files.some((f) => f.path === p)) return false;
  }
  if (insideKnownRun) return /(_run_summary\.json|\.jsonl|\/summary\.json|\/project\.json)$/.test(p);
  // Outside every run: a file that makes runs, or a folder (no extension: a new or deleted job / dataset folder).
  return RUN_MAKERS.test(p) || !/\/[^/]*\.[^/]+$/.test(p);
}

/** The runs a changed path concerns: its anchor, or a folder of its files, is the path, holds it or lies in it. */
export function runsConcerned(entries: Iterable<Entry>, path: string): Run[] {
  const out: Run[] = [];
  for (const e of entries) {
    if (e.run.anchor === path || within(e.run.anchor, path) || e.prefixes.some((p) => within(path, p) || within(p, path))) out.push(e.run);
  }
  return out;
}

/** The run whose rollouts file, summary or anchor is `path`. */
export function runOfFile(entries: Iterable<Entry>, path: string): Run | undefined {
  for (const e of entries) {
    const r = e.run;
    if (r.rolloutsPath === path || r.summaryPath === path || r.anchor === path) return r;
  }
  return undefined;
}

/**
 * What discovery did not look at, one line each, per workspace folder that has any: links it did not follow (at
 * most `max` of them, then how many more), where the folder cap stopped it, whether links could be resolved at all.
 */
export function discoveryNotesOf(folders: readonly { path: string; name: string }[], reports: ReadonlyMap<string, DiscoveryReport>, max: number): { folder: string; name: string; notes: string[] }[] {
  const out: { folder: string; name: string; notes: string[] }[] = [];
  for (const f of folders) {
    const r = reports.get(f.path);
    if (!r) continue;
    const notes = r.links.slice(0, max).map((l) => describeLink(f.path, l));
    if (r.links.length > max) notes.push(`${r.links.length - max} more links not followed`);
    if (r.capped) notes.push(`${describeCap(r.capped)} (harborRuns.maxFolders raises the cap)`);
    if (!r.linksResolved) notes.push('links could not be resolved on this file system: a link was read as a folder');
    if (notes.length) out.push({ folder: f.path, name: f.name, notes });
  }
  return out;
}
