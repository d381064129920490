// Run → the serialisable view model of the Run Overview webview (the `init` message). vscode-free and DOM-free.
// Rows are tasks, columns attempts #1…#k (k = most attempts of any task); viewer-data runs group the columns by
// their `model|harness` cell. pass@k leaves unmeasured (null reward) attempts out: "null reward = not measured".
import type { Attempt, Outcome, Run, Task } from '../core/model';
import { OUTCOMES, countRun } from '../core/model';
import { type PassAtKResult, passAtKs, taskPassAtK } from '../core/passAtK';
import { dashboardModel } from '../core/dashboard';
import { formatReward } from '../core/format';
import { relativeInside } from '../core/paths';
import { OUTCOME_ICONS, OUTCOME_LABELS } from './outcomeStyle';
import type { OverviewCell, OverviewColumn, OverviewLeftOut, OverviewModel, OverviewProblemRow, OverviewTaskRow, PassAt } from '../protocol/runOverview';

export interface OverviewOptions {
  /** Most task rows sent (the rest is counted in tasksOmitted). */
  maxTasks?: number;
  maxProblems?: number;
  /** Task table rows in the model (the panel sends the rest in pages); all when not given. */
  firstRows?: number;
  /** Past this many tasks the grid is left out (`gridDeferred`): the page asks for it with `gridPart`. */
  deferGridAbove?: number;
  /** Which init this is (see the protocol). */
  generation?: number;
}

/** The grid is not virtualised: past this many tasks it lists the first ones (the dashboard's task table has all). */
const DEFAULT_MAX_TASKS = 500;
const DEFAULT_MAX_PROBLEMS = 500;

// A run's text is clipped on the host before it is sent: the protocol caps every string (100,000 characters) and a
// message that does not parse is dropped, which would leave the panel on "Loading run…" for one 100,000-character id.
/** Longest label shown in the grid; the id (its hover) keeps up to MAX_ID. */
const MAX_LABEL = 300;
const MAX_ID = 4000;
/** Longest message, path or value otherwise. */
const MAX_TEXT = 4000;

/** `s`, or its first `max` characters with how long it was. */
export function clipText(s: string, max = MAX_TEXT): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`;
}

/**
 * The id the overview uses for a task or attempt (and sends back in `openAttempt`): the id itself, or for an id over
 * MAX_ID characters its start and its position (unique within the run; findAttempt maps it back).
 */
export function overviewId(id: string, position: number): string {
  return id.length <= MAX_ID ? id : `${id.slice(0, MAX_ID - 100)}… (${id.length} characters, #${position + 1})`;
}

const ID_KEYS = new Set(['id', 'taskId']);
const ATTEMPT_ID_KEYS = new Set(['attemptId', 'openAttemptId']);

/**
 * A dashboard part as sent: task and attempt ids as `overviewId` makes them (so the webview's clicks find them back),
 * labels clipped to MAX_LABEL and every other string to MAX_TEXT. Ids are rewritten only when the run has a long one.
 */
export function clipForWebview<T>(run: Run, value: T): T {
  let tasks: Map<string, string> | undefined;
  let attempts: Map<string, string> | undefined;
  if (run.tasks.some((t) => t.id.length > MAX_ID || t.attempts.some((a) => a.id.length > MAX_ID))) {
    tasks = new Map(run.tasks.map((t, i) => [t.id, overviewId(t.id, i)]));
    attempts = new Map(run.tasks.flatMap((t) => t.attempts.map((a) => [a.id, overviewId(a.id, a.index)] as [string, string])));
  }
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') {
      if (ID_KEYS.has(key) && tasks) return tasks.get(v) ?? clipText(v, MAX_ID);
      if (ATTEMPT_ID_KEYS.has(key) && attempts) return attempts.get(v) ?? clipText(v, MAX_ID);
      return v.length <= MAX_LABEL ? v : clipText(v, /label|name/i.test(key) ? MAX_LABEL : MAX_TEXT);
    }
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const w = walk(v[i], key);
        if (w !== v[i]) (out ??= v.slice())[i] = w;
      }
      return out ?? v;
    }
    if (v && typeof v === 'object') {
      let out: Record<string, unknown> | undefined;
      for (const [k, x] of Object.entries(v)) {
        const w = walk(x, k);
        if (w !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = w;
      }
      return out ?? v;
    }
    return v;
  };
  return walk(value, '') as T;
}

function byIndex(a: Attempt, b: Attempt): number {
  return a.index - b.index;
}

export function cellTooltip(task: Task, a: Attempt): string {
  const lines = [`${task.label || task.id} ${a.label}${a.cell ? ` (${a.cell})` : ''}`, `Outcome: ${OUTCOME_LABELS[a.outcome]}`];
  lines.push(`Reward: ${a.reward === null || a.reward === undefined ? 'null (not measured)' : formatReward(a.reward)}`);
  if (a.exception) lines.push(`Exception: ${a.exception.type}${a.exception.message ? `: ${a.exception.message}` : ''}${a.exception.where ? ` (${a.exception.where})` : ''}`);
  const f = a.failure;
  if (f) {
    const parts = [f.kind, f.class, f.stage, f.reason].filter((x): x is string => typeof x === 'string' && x.length > 0);
    if (parts.length) lines.push(`Failure: ${parts.join(' · ')}`);
  }
  if (a.missing.length) lines.push(`Missing: ${a.missing.length} expected file(s)`);
  return lines.join('\n').slice(0, 4000);
}

function cellOf(task: Task, a: Attempt): OverviewCell {
  const reward = typeof a.reward === 'number' && Number.isFinite(a.reward) ? a.reward : null;
  return { attemptId: overviewId(a.id, a.index), label: clipText(a.label, MAX_LABEL), outcome: a.outcome, reward, icon: OUTCOME_ICONS[a.outcome].id, tooltip: cellTooltip(task, a) };
}

/** Columns, and for each task its attempts placed in them. */
function layout(run: Run, tasks: Task[]): { columns: OverviewColumn[]; place: (t: Task) => (Attempt | null)[] } {
  if (run.kind === 'viewer-data') {
    const widths = new Map<string, number>();
    for (const t of run.tasks) {
      const per = new Map<string, number>();
      for (const a of t.attempts) { const c = a.cell ?? ''; per.set(c, (per.get(c) ?? 0) + 1); }
      for (const [c, n] of per) widths.set(c, Math.max(widths.get(c) ?? 0, n));
    }
    const cells = [...widths.keys()].sort((a, b) => a.localeCompare(b));
    const columns: OverviewColumn[] = [];
    const offset = new Map<string, number>();
    for (const c of cells) {
      offset.set(c, columns.length);
      for (let i = 0; i < widths.get(c)!; i++) columns.push({ label: `#${i + 1}`, group: clipText(c, MAX_LABEL) || '(no cell)' });
    }
    return {
      columns,
      place: (t) => {
        const row: (Attempt | null)[] = new Array(columns.length).fill(null);
        const used = new Map<string, number>();
        for (const a of [...t.attempts].sort(byIndex)) {
          const c = a.cell ?? '';
          const i = used.get(c) ?? 0;
          used.set(c, i + 1);
          row[offset.get(c)! + i] = a;
        }
        return row;
      },
    };
  }
  const k = Math.max(0, ...tasks.map((t) => t.attempts.length));
  const columns = Array.from({ length: k }, (_, i) => ({ label: `#${i + 1}` }));
  return {
    columns,
    place: (t) => {
      const row: (Attempt | null)[] = new Array(k).fill(null);
      [...t.attempts].sort(byIndex).forEach((a, i) => { row[i] = a; });
      return row;
    },
  };
}

/** Most attempts of a task (the k of the run's pass@k), at least 1. */
function runK(run: Run): number {
  let k = 1;
  for (const t of run.tasks) k = Math.max(k, t.attempts.length);
  return k;
}

/** The task × attempt grid: its columns and a row per task (the first `maxTasks`). */
export function gridPart(run: Run, opts: Pick<OverviewOptions, 'maxTasks'> = {}): Pick<OverviewModel, 'columns' | 'tasks' | 'tasksOmitted'> {
  const k = runK(run);
  const shown = run.tasks.slice(0, opts.maxTasks ?? DEFAULT_MAX_TASKS);
  const { columns, place } = layout(run, shown);
  const tasks: OverviewTaskRow[] = shown.map((t, i) => ({
    id: overviewId(t.id, i),
    label: clipText(t.label || t.id, MAX_LABEL),
    cells: place(t).map((a) => (a ? cellOf(t, a) : null)),
    passAtK: taskPassAtK(t.attempts.map((a) => a.reward), k),
    outcomes: [...new Set<Outcome>(t.attempts.map((a) => a.outcome))],
  }));
  return { columns, tasks, tasksOmitted: run.tasks.length - shown.length };
}

export function overviewModel(run: Run, opts: OverviewOptions = {}): OverviewModel {
  const maxProblems = opts.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const c = countRun(run);
  const k = runK(run);
  const rewards = run.tasks.map((t) => ({ rewards: t.attempts.map((a) => a.reward) }));
  const [r1, rk] = passAtKs(rewards, [1, k]);
  const at = (kk: number, r: PassAtKResult): PassAt => ({ k: kk, value: r.value, nTasks: r.nTasks, nMeasured: r.nMeasured, nAllInfra: r.nAllInfra });
  const gridDeferred = opts.deferGridAbove !== undefined && run.tasks.length > opts.deferGridAbove;
  const grid = gridDeferred ? { columns: [], tasks: [], tasksOmitted: run.tasks.length } : gridPart(run, opts);
  // The tasks the Runs tree lists in a run's "Problems" group besides its problems: the same count in both places.
  const leftOut: OverviewLeftOut[] = [
    ...run.skipped.map((r) => ({ taskId: clipText(r.taskId), which: 'skipped' as const, reason: clipText(r.reason) })),
    ...run.unvalidated.map((r) => ({ taskId: clipText(r.taskId), which: 'unvalidated' as const, reason: clipText(r.reason) })),
  ];
  const problems: OverviewProblemRow[] = run.problems.slice(0, maxProblems).map((p, index) => ({
    index, file: clipText(p.file), displayFile: clipText(relativeInside(run.root, p.file)), line: p.line, severity: p.severity,
    code: clipText(p.code, MAX_LABEL), message: clipText(p.message),
  }));
  return {
    runId: run.id,
    label: clipText(run.label, MAX_LABEL),
    kind: run.kind,
    state: run.state,
    root: clipText(run.root),
    identity: Object.entries(run.identity).map(([key, v]) => [clipText(key, MAX_LABEL), v == null ? null : clipText(v)] as [string, string | null]),
    counts: {
      total: c.total,
      measured: c.measured,
      passed: c.passed,
      byOutcome: OUTCOMES.filter((o) => c.byOutcome[o] > 0)
        .map((o) => ({ outcome: o, label: OUTCOME_LABELS[o], icon: OUTCOME_ICONS[o].id, count: c.byOutcome[o] })),
    },
    passAt1: at(1, r1),
    passAtK: at(k, rk),
    ...grid,
    gridDeferred,
    generation: opts.generation ?? 0,
    problems,
    problemsOmitted: run.problems.length - problems.length,
    leftOut: leftOut.slice(0, maxProblems),
    leftOutOmitted: Math.max(0, leftOut.length - maxProblems),
    dashboard: clipForWebview(run, dashboardModel(run, { firstRows: opts.firstRows })),
    hasTraining: run.files.some((f) => f.key === 'metrics' && f.present && !!f.path),
  };
}

/** The attempt a cell stands for (host side of `openAttempt`). */
export function findAttempt(run: Run, taskId: string, attemptId: string): { task: Task; attempt: Attempt } | undefined {
  const task = findTask(run, taskId);
  const attempt = task?.attempts.find((a) => overviewId(a.id, a.index) === attemptId);
  return task && attempt ? { task, attempt } : undefined;
}

/** The task an overview id stands for. */
export function findTask(run: Run, taskId: string): Task | undefined {
  return run.tasks.find((t, i) => overviewId(t.id, i) === taskId);
}

/** The file to open for an attempt: its test-stdout, else its first present evidence file (not folder). */
export function evidenceToOpen(a: Attempt): string | undefined {
  const files = (evs: Attempt['evidence']): Attempt['evidence'] => evs.flatMap((e) => [e, ...files(e.children ?? [])]);
  const all = files(a.evidence).filter((e) => e.present && !e.isDir);
  return (all.find((e) => e.kind === 'test-stdout') ?? all[0])?.path;
}
