// The large JSON documents the summary worker reads off the caller's thread (nemo/summaryDoc.ts): a NeMo Gym run
// summary (~40 MB at 40,000 repeats) and a viewer dataset's summary.json (~24 MB at 10,000 tasks × 8 attempts). Each
// has the words its problems use and the schema checks the worker makes before its tasks are handed over.
import { issueProblems, type JsonDocument } from './jsonFile';
import type { Problem } from '../model';
import { SummaryReadSchema, SummaryTaskSchema, isObj } from './nemo/summaryShape';
import { summaryIssues } from './viewerSummaryIssues';
import type { TimeSlice } from '../turn';

export type LargeDocKind = 'nemo-summary' | 'viewer-summary';

export interface LargeDoc {
  /** What its read problems call the file (readJsonDocument's `what`). */
  what: string;
  /**
   * Its schema's problems, for a document that parsed: on the summary worker, and by the reader on its own thread
   * when the document was read there (`slice`: the turns of the event loop a long check takes there).
   */
  schemaProblems(doc: JsonDocument, slice?: TimeSlice): Promise<Problem[]>;
}

export const LARGE_DOCS: Readonly<Record<LargeDocKind, LargeDoc>> = {
  'nemo-summary': {
    what: 'run summary',
    async schemaProblems(doc) {
      const value = doc.value;
      if (!isObj(value)) return [];
      // A list of tasks is checked a task at a time, the rest without them: the schema's copy of the document (a new
      // object for each of its objects) is then one task's, not 40,000 repeats' at once beside the parsed tree. When
      // a task does not pass, the whole document is checked as one, for the union's own words about it.
      const tasks = value.tasks;
      let parsed = SummaryReadSchema.safeParse(Array.isArray(tasks) ? { ...value, tasks: [] } : value);
      if (Array.isArray(tasks) && !tasks.every((t) => SummaryTaskSchema.safeParse(t).success)) parsed = SummaryReadSchema.safeParse(value);
      return parsed.success ? [] : issueProblems(doc, parsed.error.issues, 'run summary');
    },
  },
  'viewer-summary': {
    what: 'dataset summary.json',
    async schemaProblems(doc, slice) {
      const issues = await summaryIssues(doc.value, slice);
      return issues.length ? issueProblems(doc, issues, 'summary.json') : [];
    },
  },
};
