// The runs a comparison puts side by side. A side is a logical run: one run as read, one `agent|model` (Harbor) or
// `model|harness` (viewer data) cell of a run that holds several, or — a view choice, stated wherever it is shown —
// several runs of the same kind, dataset, agent and model merged into one (Harbor users often run one trial per job).
import type { Attempt, Run, SourceKind, Task } from '../model';

export interface CompareSide {
  /** Stable id: the run's id, `<run id>#<cell>` for a cell, `merged:<first run id>+<n>` for a merged side. */
  id: string;
  label: string;
  kind: SourceKind;
  /** The runs this side was read from (more than one when merged). */
  runIds: string[];
  /** Labels of the merged runs, when this side merges several; empty otherwise. */
  mergedFrom: string[];
  /** The cell this side keeps, when it is one cell of a run. */
  cell: string | null;
  /** agent / model / dataset as far as the run says. */
  agent: string | null;
  model: string | null;
  dataset: string | null;
  tasks: Task[];
  /** A merged side renames its attempts (`<side id>::<attempt id>`): where each came from. */
  origins?: Record<string, { runId: string; attemptId: string }>;
}

export interface SideOptions {
  /** Merge runs of the same kind, dataset, agent and model into one side (default false). */
  merge?: boolean;
  /** A run with attempts in several cells becomes one side per cell (default true). */
  splitCells?: boolean;
}

function cellsOf(run: Run): string[] {
  const cells = new Set<string>();
  for (const t of run.tasks) for (const a of t.attempts) if (a.cell) cells.add(a.cell);
  return [...cells].sort();
}

function agentModel(run: Run, cell: string | null): { agent: string | null; model: string | null } {
  if (cell) {
    const [x, y] = cell.split('|');
    // Harbor cells are agent|model, viewer data cells model|harness.
    return run.kind === 'viewer-data' ? { agent: y ?? null, model: x ?? null } : { agent: x ?? null, model: y ?? null };
  }
  return { agent: run.identity.agent ?? run.identity.harnesses ?? null, model: run.identity.model ?? run.identity.models ?? null };
}

function sideOf(run: Run, cell: string | null): CompareSide {
  const { agent, model } = agentModel(run, cell);
  const tasks = cell === null ? run.tasks : run.tasks
    .map((t) => ({ ...t, attempts: t.attempts.filter((a) => a.cell === cell) }))
    .filter((t) => t.attempts.length > 0);
  return {
    id: cell === null ? run.id : `${run.id}#${cell}`,
    label: cell === null ? run.label : `${run.identity.job ?? run.label} · ${cell}`,
    kind: run.kind, runIds: [run.id], mergedFrom: [], cell, agent, model,
    dataset: run.identity.dataset ?? run.identity.taskset ?? null, tasks,
  };
}

/** What makes two sides the same logical run; null when agent or model is unknown (such a side is never merged). */
export function mergeKey(s: CompareSide): string | null {
  if (!s.agent || !s.model || s.agent.includes(',') || s.model.includes(',')) return null;
  return JSON.stringify([s.kind, s.dataset, s.agent, s.model]);
}

/** One side holding every task and attempt of `group` (attempt ids prefixed by their side so they stay unique). */
export function mergeSides(group: readonly CompareSide[]): CompareSide {
  if (group.length === 1) return group[0];
  const byTask = new Map<string, Task>();
  const origins: Record<string, { runId: string; attemptId: string }> = {};
  for (const s of group) {
    for (const t of s.tasks) {
      let m = byTask.get(t.id);
      if (!m) { m = { id: t.id, label: t.label, attempts: [] }; byTask.set(t.id, m); }
      for (const a of t.attempts) {
        const id = `${s.id}::${a.id}`;
        m.attempts.push({ ...a, id } satisfies Attempt);
        origins[id] = s.origins?.[a.id] ?? { runId: s.runIds[0], attemptId: a.id };
      }
    }
  }
  const first = group[0];
  return {
    id: `merged:${first.id}+${group.length - 1}`,
    label: `${[first.dataset, first.agent, first.model].filter(Boolean).join(' · ') || first.label} (${group.length} runs merged)`,
    kind: first.kind, runIds: group.flatMap((s) => s.runIds), mergedFrom: group.map((s) => s.label), cell: first.cell,
    agent: first.agent, model: first.model, dataset: first.dataset,
    tasks: [...byTask.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), origins,
  };
}

/** The sides of `runs`, in the order given (a run given twice counted once): cells split out, and with `merge` runs of the same key merged. */
export function sidesOf(runs: readonly Run[], opts: SideOptions = {}): CompareSide[] {
  const split = opts.splitCells ?? true;
  const sides: CompareSide[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    if (seen.has(run.id)) continue; // the same run given twice (a job and the folder holding it) is one side
    seen.add(run.id);
    const cells = split ? cellsOf(run) : [];
    if (cells.length > 1) for (const c of cells) sides.push(sideOf(run, c));
    else sides.push(sideOf(run, null));
  }
  if (!opts.merge) return sides;
  const groups = new Map<string, CompareSide[]>();
  const order: (string | CompareSide)[] = [];
  for (const s of sides) {
    const key = mergeKey(s);
    if (key === null) { order.push(s); continue; }
    const g = groups.get(key);
    if (g) g.push(s);
    else { groups.set(key, [s]); order.push(key); }
  }
  return order.map((o) => (typeof o === 'string' ? mergeSides(groups.get(o)!) : o));
}

/** The run and attempt (as read) behind an attempt of a side. */
export function attemptOrigin(side: CompareSide, attemptId: string): { runId: string; attemptId: string } {
  return side.origins?.[attemptId] ?? { runId: side.runIds[0], attemptId };
}
