// Filter and sort state of the Runs tree, and the pure functions that apply it (vscode-free).
import type { Attempt, Outcome, Run, Task } from '../../core/model';
import { isPass, OUTCOMES } from '../../core/model';
import { OUTCOME_LABELS, attemptHasProblem } from '../outcomeStyle';

export type TaskSort = 'id' | 'reward' | 'failures';

export interface ViewState {
  /** Show only attempts with one of these outcomes; null = all. */
  outcomes: ReadonlySet<Outcome> | null;
  /** Case-insensitive substring of the task id or label; '' = all. */
  text: string;
  /** Only tasks with an attempt that has a problem (missing, infra error, incomplete, missing evidence). */
  onlyProblems: boolean;
  sort: TaskSort;
}

export function defaultViewState(): ViewState {
  return { outcomes: null, text: '', onlyProblems: false, sort: 'id' };
}

/** The state as stored in the workspace's memento (plain JSON), so filter and sort survive a reload. */
export interface StoredViewState { outcomes: Outcome[] | null; text: string; onlyProblems: boolean; sort: TaskSort }

export function storeViewState(s: ViewState): StoredViewState {
  return { outcomes: s.outcomes ? [...s.outcomes] : null, text: s.text, onlyProblems: s.onlyProblems, sort: s.sort };
}

const SORTS: readonly TaskSort[] = ['id', 'reward', 'failures'];

/** A stored state read back leniently: what is not understood (an older or damaged entry) falls back to the default. */
export function restoreViewState(v: unknown): ViewState {
  const d = defaultViewState();
  if (!v || typeof v !== 'object') return d;
  const o = v as Record<string, unknown>;
  const outcomes = Array.isArray(o.outcomes)
    ? new Set(o.outcomes.filter((x): x is Outcome => (OUTCOMES as readonly unknown[]).includes(x)))
    : null;
  return {
    outcomes,
    text: typeof o.text === 'string' ? o.text : d.text,
    onlyProblems: typeof o.onlyProblems === 'boolean' ? o.onlyProblems : d.onlyProblems,
    sort: SORTS.includes(o.sort as TaskSort) ? (o.sort as TaskSort) : d.sort,
  };
}

export function isFilterActive(s: ViewState): boolean {
  return s.outcomes !== null || s.text.trim() !== '' || s.onlyProblems;
}

/** "Showing: failed, infra error · text "git" · only problems" or undefined when nothing is filtered. */
export function describeFilter(s: ViewState): string | undefined {
  if (!isFilterActive(s)) return undefined;
  const parts: string[] = [];
  if (s.outcomes) parts.push(`outcome ${[...s.outcomes].map((o) => OUTCOME_LABELS[o]).join(', ') || '(none)'}`);
  if (s.text.trim()) parts.push(`text "${s.text.trim()}"`);
  if (s.onlyProblems) parts.push('only problems');
  return `Filtered by ${parts.join(' · ')}`;
}

export function attemptVisible(a: Attempt, s: ViewState): boolean {
  if (s.outcomes && !s.outcomes.has(a.outcome)) return false;
  if (s.onlyProblems && !attemptHasProblem(a)) return false;
  return true;
}

function taskMatchesText(t: Task, needle: string): boolean {
  return t.id.toLowerCase().includes(needle) || t.label.toLowerCase().includes(needle);
}

export function taskVisible(t: Task, s: ViewState): boolean {
  const needle = s.text.trim().toLowerCase();
  if (needle && !taskMatchesText(t, needle)) return false;
  if (!s.outcomes && !s.onlyProblems) return true;
  for (const a of t.attempts) if (attemptVisible(a, s)) return true;
  return false;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function meanReward(t: Task): number {
  let sum = 0;
  let n = 0;
  for (const a of t.attempts) {
    if (a.reward !== null && a.reward !== undefined) { sum += a.reward; n++; }
  }
  return n === 0 ? -Infinity : sum / n;
}

/** Attempts that did not pass: failed, errored, missing … (a running attempt is not a failure yet). */
export function failureCount(t: Task): number {
  let n = 0;
  for (const a of t.attempts) if (!isPass(a.reward) && a.outcome !== 'running') n++;
  return n;
}

function compareIds(a: Task, b: Task): number {
  if (a.index !== undefined && b.index !== undefined && a.index !== b.index) return a.index - b.index;
  return collator.compare(a.id, b.id);
}

/** The run's tasks that pass the filter, in the chosen order (a new array; the run is not changed). */
export function visibleTasks(run: Run, s: ViewState): Task[] {
  const out = isFilterActive(s) ? run.tasks.filter((t) => taskVisible(t, s)) : run.tasks.slice();
  if (s.sort === 'id') {
    out.sort(compareIds);
  } else if (s.sort === 'reward') {
    const key = new Map(out.map((t) => [t, meanReward(t)]));
    out.sort((a, b) => (key.get(b)! - key.get(a)!) || compareIds(a, b));
  } else {
    const key = new Map(out.map((t) => [t, failureCount(t)]));
    out.sort((a, b) => (key.get(b)! - key.get(a)!) || compareIds(a, b));
  }
  return out;
}

/** A run stays visible under a filter when a task of it matches, or (only problems) when it has problems itself. */
export function runVisible(run: Run, s: ViewState): boolean {
  if (!isFilterActive(s)) return true;
  if (s.onlyProblems && !s.outcomes && !s.text.trim() && run.problems.length > 0) return true;
  return run.tasks.some((t) => taskVisible(t, s));
}
