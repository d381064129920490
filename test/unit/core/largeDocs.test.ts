// The large documents the summary worker reads (readers/largeDocs.ts): what each calls its file in its problems, and
// the schema problems each finds in a parsed document (with their JSON paths and lines). Also served on this thread
// by serveSummary with `kind`, as the worker serves them, and read on this thread by readSummaryDocument.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LARGE_DOCS } from '../../../src/core/readers/largeDocs';
import { issueProblems, parseJsonDocument } from '../../../src/core/readers/jsonFile';
import { SummaryReadSchema } from '../../../src/core/readers/nemo/summaryShape';
import { readSummaryDocument, serveSummary, type SummaryMsg } from '../../../src/core/readers/nemo/summaryDoc';
import { NodeFs } from '../../../src/core/fs/nodeFs';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-large-docs-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const doc = (value: unknown) => parseJsonDocument('/d/summary.json', JSON.stringify(value, null, 2), 'x');
const said = (ps: { code: string; jsonPath?: unknown; line?: number; message: string }[]) => ps.map((p) => [p.code, JSON.stringify(p.jsonPath), p.line, p.message]);

const viewerTask = (id: string) => ({ id, cells: { 'm|h': { passed_at: 1, attempts: [{ attempt: 1, reward: 1 }] } } });

test('each document names its file as its readers do', () => {
  assert.equal(LARGE_DOCS['nemo-summary'].what, 'run summary');
  assert.equal(LARGE_DOCS['viewer-summary'].what, 'dataset summary.json');
});

test('a NeMo Gym run summary: schema problems at their paths and lines, said as "run summary"; none for a value that is no object', async () => {
  const nemo = LARGE_DOCS['nemo-summary'];
  const bad = await nemo.schemaProblems(doc({ files: {}, target: 5, tasks: [] }));
  assert.equal(bad.length, 1);
  assert.equal(bad[0].code, 'schema');
  assert.deepEqual(bad[0].jsonPath, ['target']);
  assert.equal(bad[0].line, 3);
  assert.match(bad[0].message, /^run summary \.target: /);
  assert.deepEqual(await nemo.schemaProblems(doc({ files: {}, tasks: [] })), []);
  assert.deepEqual(await nemo.schemaProblems(doc([1, 2])), []);
  assert.deepEqual(await nemo.schemaProblems(doc('text')), []);
});

test('a viewer summary.json: its head and each task checked, said as "summary.json"; a value that is no object is said to be wrong', async () => {
  const viewer = LARGE_DOCS['viewer-summary'];
  assert.deepEqual(await viewer.schemaProblems(doc({ k_max: 1, tasks: [viewerTask('a')] })), []);
  const bad = await viewer.schemaProblems(doc({ k_max: 'four', tasks: [viewerTask('a'), { ...viewerTask('b'), cells: 3 }] }));
  assert.deepEqual(bad.map((p) => p.jsonPath), [['k_max'], ['tasks', 1, 'cells']]);
  for (const p of bad) {
    assert.equal(p.code, 'schema');
    assert.match(p.message, /^summary\.json \./);
    assert.ok(typeof p.line === 'number' && p.line > 1);
  }
  const notObject = await viewer.schemaProblems(doc([1, 2]));
  assert.equal(notObject.length, 1);
  assert.match(notObject[0].message, /^summary\.json \(top level\): /);
});

/** serveSummary on this thread: every message until the end. */
async function serve(file: string, kind?: 'nemo-summary' | 'viewer-summary'): Promise<SummaryMsg[]> {
  const got: SummaryMsg[] = [];
  let ask: (() => void) | undefined;
  let heard: (() => void) | undefined;
  await serveSummary({ path: file, ...(kind ? { kind } : {}) }, (m) => { got.push(m); heard?.(); }, (f) => { ask = () => f({ more: true }); });
  for (let n = 0; n < 100 && got[got.length - 1].kind !== 'end'; n++) {
    const answered = new Promise<void>((r) => { heard = r; });
    ask!();
    await answered;
  }
  return got;
}

test('serveSummary checks the document its kind says (a run summary when none is said)', async () => {
  const file = `${tmpRoot}/summary.json`;
  fs.writeFileSync(file, JSON.stringify({ k_max: 'four', target: 5, files: {}, tasks: [viewerTask('a')] }, null, 2));
  // what the worker says of the document: the head's problems (reading, parsing), then the end's (the schema's)
  const head = (msgs: SummaryMsg[]) => ({ problems: msgs.flatMap((m) => (m.kind === 'head' || m.kind === 'end' ? m.problems : [])) });
  const asViewer = head(await serve(file, 'viewer-summary'));
  assert.deepEqual(said(asViewer.problems).map((p) => p[1]), ['["k_max"]']);
  assert.match(asViewer.problems[0].message, /^summary\.json \.k_max/);
  const asNemo = head(await serve(file));
  assert.ok(asNemo.problems.some((p) => p.message.startsWith('run summary .target')), JSON.stringify(asNemo.problems));
  assert.ok(!asNemo.problems.some((p) => p.message.includes('k_max')));
  assert.deepEqual(head(await serve(file, 'nemo-summary')).problems, asNemo.problems);
  // a file that is not there: said in the words of its kind
  const gone = head(await serve(`${tmpRoot}/none.json`, 'viewer-summary'));
  assert.deepEqual(gone.problems.map((p) => p.message), ['the dataset summary.json is not on disk']);
});

test('readSummaryDocument on this thread reads in the words of its kind', async () => {
  const gone = `${tmpRoot}/gone.json`;
  const v = await readSummaryDocument(new NodeFs(), gone, Infinity, undefined, undefined, 'viewer-summary');
  assert.deepEqual(v.doc.problems.map((p) => p.message), ['the dataset summary.json is not on disk']);
  const n = await readSummaryDocument(new NodeFs(), gone, Infinity);
  assert.deepEqual(n.doc.problems.map((p) => p.message), ['the run summary is not on disk']);
});

test('a NeMo Gym run summary checked a task at a time says what the whole document checked as one says', async () => {
  const ok = { task_id: 't', repeats: [{ repeat: 0, outcome: 'scored', reward: 1 }] };
  const values: unknown[] = [
    { files: {}, tasks: [ok, ok] },
    { files: {}, target: 5, tasks: [ok], missing_paths: [3] },
    { files: {}, target: 5, tasks: [ok, { task_id: 't2', repeats: [{ repeat: -1, outcome: 3 }] }, { repeats: [] }, 7] },
    { target: 5, tasks: { a: { repeats: [{ repeat: 'x' }] } } },
    { files: {}, tasks: 'no' },
    { files: {} },
  ];
  for (const v of values) {
    const d = doc(v);
    const whole = SummaryReadSchema.safeParse(v);
    const want = whole.success ? [] : issueProblems(d, whole.error.issues, 'run summary');
    assert.deepEqual(await LARGE_DOCS['nemo-summary'].schemaProblems(d), want, JSON.stringify(v));
  }
});
