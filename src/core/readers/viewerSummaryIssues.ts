// What ViewerSummarySchema says of a viewer dataset's summary.json (docs/formats.md#viewer-data), checked a task at a
// time: used by the viewer reader on this thread and by the summary worker (largeDocs.ts) for a large summary.json.
import { ViewerSummaryHeadSchema, ViewerTaskSchema } from '../schemas/viewer';
import type { IssueLike } from './jsonFile';
import { TimeSlice } from '../turn';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const isNum = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const optStr = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const optNum = (v: unknown): boolean => v === undefined || v === null || isNum(v);

/**
 * A task ViewerTaskSchema certainly passes, told without the schema (which took ~0.3 s for 10,000 tasks × 8 attempts,
 * most of the summary worker's time before it hands the first task over). Only ever true where the schema's check
 * passes (test/unit/core/viewerSummaryIssues.test.ts checks this on a grid of odd tasks); false asks the schema,
 * which says what is wrong. Stricter than the schema where that is simpler (a `__proto__` key, a cells object whose
 * prototype is not Object's).
 */
export function plainlyValidTask(t: unknown): boolean {
  if (!isObj(t) || typeof t.id !== 'string') return false;
  if (!(t.index === undefined || (typeof t.index === 'number' && Number.isSafeInteger(t.index)))) return false;
  if (!optNum(t.difficulty_level) || !optStr(t.difficulty) || !optStr(t.question) || !optStr(t.reward_mode)) return false;
  const cells = t.cells;
  if (!isObj(cells) || Object.getPrototypeOf(cells) !== Object.prototype || Object.prototype.hasOwnProperty.call(cells, '__proto__')) return false;
  for (const key in cells) {
    const cell = cells[key];
    if (!isObj(cell) || !(cell.passed_at === undefined || cell.passed_at === null || isCount(cell.passed_at))) return false;
    const attempts = cell.attempts;
    if (!Array.isArray(attempts)) return false;
    for (let i = 0; i < attempts.length; i++) {
      const a: unknown = attempts[i];
      if (!isObj(a) || !isCount(a.attempt) || !(a.reward === null || isNum(a.reward))) return false;
      if (!optNum(a.n_turns) || !optNum(a.elapsed_sec) || !optStr(a.trace)) return false;
    }
  }
  return true;
}

/**
 * What ViewerSummarySchema says of a summary.json, checked in parts: the document without its tasks now, then each
 * task on its own as it is given (`task`), in order (its issues' paths under ["tasks", i]); `issues` says them all.
 * The summary worker checks each slice of tasks as it sends it (nemo/summaryDoc.ts).
 */
export function viewerIssueParts(value: unknown): { task(t: unknown, i: number): void; issues(): IssueLike[] } {
  const head = ViewerSummaryHeadSchema.safeParse(value);
  const issues: IssueLike[] = head.success ? [] : [...head.error.issues];
  return {
    task(t, i) {
      if (plainlyValidTask(t)) return;
      const r = ViewerTaskSchema.safeParse(t);
      if (!r.success) for (const issue of r.error.issues) issues.push({ ...issue, path: ['tasks', i, ...issue.path] });
    },
    issues: () => issues,
  };
}

/**
 * What ViewerSummarySchema says of a summary.json, in the same order: the document without its tasks, then each task
 * on its own (viewerIssueParts), so no copy of every task is made at once. The tasks are checked in slices of time
 * with turns of the event loop between them (10,000 tasks held the extension host for seconds).
 */
export async function summaryIssues(value: unknown, slice = new TimeSlice()): Promise<IssueLike[]> {
  const parts = viewerIssueParts(value);
  const tasks = isObj(value) && Array.isArray(value.tasks) ? value.tasks : [];
  for (let i = 0; i < tasks.length; i++) {
    if (slice.due) await slice.yield();
    parts.task(tasks[i], i);
  }
  return parts.issues();
}
