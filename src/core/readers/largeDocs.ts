// The large JSON documents the summary worker reads off the caller's thread (nemo/summaryDoc.ts): a NeMo Gym run
// summary (~40 MB at 40,000 repeats) and a viewer dataset's summary.json (~24 MB at 10,000 tasks × 8 attempts). Each
// has the words its problems use and the schema checks the worker makes before its tasks are handed over.
import { issueProblems, type IssueLike, type JsonDocument } from './jsonFile';
import type { Problem } from '../model';
import { plainlyValidTask, SummaryReadSchema, SummaryTaskSchema, isObj } from './nemo/summaryShape';
import { summaryIssues, viewerIssueParts } from './viewerSummaryIssues';
import type { TimeSlice } from '../turn';

export type LargeDocKind = 'nemo-summary' | 'viewer-summary';

/** A document's schema checked in parts: the document without its tasks at once, then each task as it is given. */
export interface DocCheck {
  /** Checks the document's task at index `i` of its list, in order. */
  task(t: unknown, i: number): void;
  /** What its schema says of it. `whole`: the document's value, tasks and all, again (asked only when a task failed). */
  issues(whole: () => Promise<unknown>): Promise<IssueLike[]>;
}

export interface LargeDoc {
  /** What its read problems call the file (readJsonDocument's `what`). */
  what: string;
  /** What its schema problems call it (issueProblems' `what`). */
  schemaWhat: string;
  /**
   * Its schema's problems, for a document that parsed: by the reader on its own thread when the document was read
   * there (`slice`: the turns of the event loop a long check takes there).
   */
  schemaProblems(doc: JsonDocument, slice?: TimeSlice): Promise<Problem[]>;
  /**
   * What its schema says, checked a task at a time as they are given (the summary worker checks each slice of tasks
   * as it sends it, nemo/summaryDoc.ts); made while the document's value is whole.
   */
  inParts(value: unknown): DocCheck;
}

const NO_CHECK: DocCheck = { task() { /* nothing to check */ }, issues: () => Promise.resolve([]) };

export const LARGE_DOCS: Readonly<Record<LargeDocKind, LargeDoc>> = {
  'nemo-summary': {
    what: 'run summary',
    schemaWhat: 'run summary',
    async schemaProblems(doc) {
      const check = this.inParts(doc.value);
      const tasks = isObj(doc.value) ? doc.value.tasks : undefined;
      if (Array.isArray(tasks)) for (let i = 0; i < tasks.length; i++) check.task(tasks[i], i);
      const issues = await check.issues(() => Promise.resolve(doc.value));
      return issues.length ? issueProblems(doc, issues, 'run summary') : [];
    },
    inParts(value) {
      if (!isObj(value)) return NO_CHECK;
      // A list of tasks is checked a task at a time, the rest without them: the schema's copy of the document (a new
      // object for each of its objects) is then one task's, not 40,000 repeats' at once beside the parsed tree. When
      // a task does not pass, the whole document is checked as one, for the union's own words about it.
      const head = SummaryReadSchema.safeParse(Array.isArray(value.tasks) ? { ...value, tasks: [] } : value);
      let failed = false;
      return {
        task(t) { if (!failed && !plainlyValidTask(t) && !SummaryTaskSchema.safeParse(t).success) failed = true; },
        async issues(whole) {
          const parsed = failed ? SummaryReadSchema.safeParse(await whole()) : head;
          return parsed.success ? [] : parsed.error.issues;
        },
      };
    },
  },
  'viewer-summary': {
    what: 'dataset summary.json',
    schemaWhat: 'summary.json',
    async schemaProblems(doc, slice) {
      const issues = await summaryIssues(doc.value, slice);
      return issues.length ? issueProblems(doc, issues, 'summary.json') : [];
    },
    inParts(value) {
      const parts = viewerIssueParts(value);
      return { task: (t, i) => parts.task(t, i), issues: () => Promise.resolve(parts.issues()) };
    },
  },
};
