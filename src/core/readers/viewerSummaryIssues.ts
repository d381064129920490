// What ViewerSummarySchema says of a viewer dataset's summary.json (docs/formats.md#viewer-data), checked a task at a
// time: used by the viewer reader on this thread and by the summary worker (largeDocs.ts) for a large summary.json.
import { ViewerSummaryHeadSchema, ViewerTaskSchema } from '../schemas/viewer';
import type { IssueLike } from './jsonFile';
import { TimeSlice } from '../turn';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What ViewerSummarySchema says of a summary.json, in the same order: the document without its tasks, then each task
 * on its own (its issues' paths under ["tasks", i]), so no copy of every task is made at once. The tasks are checked
 * in slices of time with turns of the event loop between them (10,000 tasks held the extension host for seconds).
 */
export async function summaryIssues(value: unknown, slice = new TimeSlice()): Promise<IssueLike[]> {
  const head = ViewerSummaryHeadSchema.safeParse(value);
  const issues: IssueLike[] = head.success ? [] : [...head.error.issues];
  const tasks = isObj(value) && Array.isArray(value.tasks) ? value.tasks : [];
  for (let i = 0; i < tasks.length; i++) {
    if (slice.due) await slice.yield();
    const r = ViewerTaskSchema.safeParse(tasks[i]);
    if (!r.success) for (const issue of r.error.issues) issues.push({ ...issue, path: ['tasks', i, ...issue.path] });
  }
  return issues;
}
