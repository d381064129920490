// What `harbor-runs inspect` prints: per run its counts by outcome and pass@1 / pass@k, as a JSON document
// (docs/inspect-json.md, schema 'harbor-runs/inspect@1') or as text (reportText.ts) with paths relative to the
// folder given.
import { countRun, type OutcomeCounts, type Run } from './model';
import { passAtKs } from './passAtK';

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

/**
 * The units pass@k averages over: the tasks, or for viewer data each (task, cell) pair, first seen first; tasks that
 * share an id share their units. Grouped per task id and then per cell (no key text made per attempt: 80,000 of them
 * in a 10,000-task dataset).
 */
export function passAtKUnits(run: Run): { rewards: (number | null)[] }[] {
  const units: { rewards: (number | null)[] }[] = [];
  const byId = new Map<string, Map<string, (number | null)[]>>();
  for (const t of run.tasks) {
    let cells = byId.get(t.id);
    if (!cells) byId.set(t.id, (cells = new Map()));
    for (const a of t.attempts) {
      const cell = a.cell ?? '';
      let list = cells.get(cell);
      if (!list) {
        cells.set(cell, (list = []));
        units.push({ rewards: list });
      }
      list.push(a.reward ?? null);
    }
  }
  return units;
}

/** pass@1 and pass@k with k = the most attempts any unit has (one entry when that is 1; none without attempts). */
export function runPassAtK(run: Run): { maxAttempts: number; entries: PassAtKEntry[] } {
  const units = passAtKUnits(run);
  const maxAttempts = units.reduce((m, u) => Math.max(m, u.rewards.length), 0);
  const ks = maxAttempts === 0 ? [] : maxAttempts === 1 ? [1] : [1, maxAttempts];
  const results = passAtKs(units, ks); // one pass over the rewards for both k
  return { maxAttempts, entries: ks.map((k, i) => ({ k, ...results[i] })) };
}

export function inspectRun(run: Run): InspectedRun {
  const { maxAttempts, entries } = runPassAtK(run);
  return { ...run, counts: countRun(run), maxAttempts, passAtK: entries };
}

export function inspectDocument(root: string, runs: readonly Run[]): InspectDocument {
  return { schema: INSPECT_SCHEMA, root, runs: runs.map(inspectRun) };
}

export { renderRunText, renderText, type TextOptions } from './reportText';
