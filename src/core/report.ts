// What `harbor-runs inspect` prints: per run its counts by outcome and pass@1 / pass@k, as a JSON document
// (docs/inspect-json.md, schema 'harbor-runs/inspect@1') or as text (reportText.ts) with paths relative to the
// folder given.
import { countRun, type OutcomeCounts, type Run } from './model';
import { passAtK } from './passAtK';

export const INSPECT_SCHEMA = 'harbor-runs/inspect@1';

export interface PassAtKEntry {
  k: number;
  /** Mean over the measured units; null when none was measured. */
  value: number | null;
  /** Units: tasks (viewer data: task × cell). */
  nTasks: number;
  nMeasured: number;
  nAllInfra: number;
}

export type InspectedRun = Run & { counts: OutcomeCounts; maxAttempts: number; passAtK: PassAtKEntry[] };

export interface InspectDocument {
  schema: typeof INSPECT_SCHEMA;
  root: string;
  runs: InspectedRun[];
}

/** The units pass@k averages over: the tasks, or for viewer data each (task, cell) pair. */
export function passAtKUnits(run: Run): { rewards: (number | null)[] }[] {
  const units = new Map<string, (number | null)[]>();
  for (const t of run.tasks) {
    for (const a of t.attempts) {
      const key = `${t.id}\u0000${a.cell ?? ''}`;
      let list = units.get(key);
      if (!list) units.set(key, (list = []));
      list.push(a.reward ?? null);
    }
  }
  return [...units.values()].map((rewards) => ({ rewards }));
}

/** pass@1 and pass@k with k = the most attempts any unit has (one entry when that is 1; none without attempts). */
export function runPassAtK(run: Run): { maxAttempts: number; entries: PassAtKEntry[] } {
  const units = passAtKUnits(run);
  const maxAttempts = units.reduce((m, u) => Math.max(m, u.rewards.length), 0);
  const ks = maxAttempts === 0 ? [] : maxAttempts === 1 ? [1] : [1, maxAttempts];
  return { maxAttempts, entries: ks.map((k) => ({ k, ...passAtK(units, k) })) };
}

export function inspectRun(run: Run): InspectedRun {
  const { maxAttempts, entries } = runPassAtK(run);
  return { ...run, counts: countRun(run), maxAttempts, passAtK: entries };
}

export function inspectDocument(root: string, runs: readonly Run[]): InspectDocument {
  return { schema: INSPECT_SCHEMA, root, runs: runs.map(inspectRun) };
}

export { renderRunText, renderText, type TextOptions } from './reportText';
