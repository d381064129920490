// The large JSON documents the summary worker reads off the caller's thread (nemo/summaryDoc.ts): a NeMo Gym run
// summary (~40 MB at 40,000 repeats) and a viewer dataset's summary.json (~24 MB at 10,000 tasks × 8 attempts). Each
// has the words its problems use and the schema checks the worker makes before its tasks are handed over.
import { issueProblems, type JsonDocument } from './jsonFile';
import type { Problem } from '../model';
import { SummaryReadSchema, isObj } from './nemo/summaryShape';
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
      if (!isObj(doc.value)) return [];
      const parsed = SummaryReadSchema.safeParse(doc.value);
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
