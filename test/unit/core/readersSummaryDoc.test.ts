// The worker's side of reading a large run summary (src/core/readers/nemo/summaryDoc.ts), called on this thread: what
// serveSummary sends (the head, the tasks in order in slices cut by size, a message of slices at a time, the schema's
// problems and the text's SHA-256 at the end), where placeInFile
// places paths (only while the file is the text that was digested), how placeDeferred fills in the lines of the
// problems waiting for one, and when readSummaryDocument reads on this thread.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import type { Problem } from '../../../src/core/model';
import { locate, parseJsonDocument, type JsonDocument } from '../../../src/core/readers/jsonFile';
import { readRunSummary } from '../../../src/core/readers/runSummary';
import { SLICE_CHARS } from '../../../src/core/jsonSlices';
import { assertSlicedBySize } from '../../support/slices';
import {
  placeDeferred, placeInFile, readSummaryDocument, serveSummary, SUMMARY_WORKER_MIN_BYTES, type SummaryMsg,
} from '../../../src/core/readers/nemo/summaryDoc';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-summarydoc-units-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
let counter = 0;

function writeFile(text: string | Uint8Array): string {
  const file = `${tmpRoot}/s-${++counter}_run_summary.json`;
  fs.writeFileSync(file, text);
  return file;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

type Obj = Record<string, unknown>;
type Head = Extract<SummaryMsg, { kind: 'head' }>;

/** Runs serveSummary as the caller would: asks for the next message until the end; every message in order. */
async function serve(file: string, maxBytes?: number, sliceChars?: number, messageChars?: number): Promise<SummaryMsg[]> {
  const got: SummaryMsg[] = [];
  let ask: (() => void) | undefined;
  const sizes = { ...(sliceChars !== undefined ? { sliceChars } : {}), ...(messageChars !== undefined ? { messageChars } : {}) };
  let heard: (() => void) | undefined;
  const post = (m: SummaryMsg) => { got.push(m); heard?.(); };
  await serveSummary({ path: file, ...(maxBytes !== undefined ? { maxBytes } : {}), ...sizes }, post, (f) => { ask = () => f({ more: true }); });
  assert.ok(ask, 'serveSummary waits for the caller to ask');
  for (let n = 0; n < 10_000 && got[got.length - 1].kind !== 'end'; n++) {
    const answered = new Promise<void>((r) => { heard = r; });
    ask();
    await answered; // (the end may come a moment later: the schema's problems are placed in the file read again)
  }
  return got;
}

/** Every slice the 'tasks' messages hold, in order. */
const slicesOf = (msgs: SummaryMsg[]) => msgs.flatMap((m) => (m.kind === 'tasks'
  ? m.ends.map((e, i) => new TextDecoder().decode(m.bytes.subarray(i ? m.ends[i - 1] : 0, e))) : []));

function task(i: number): Obj {
  return { task_id: `t${i}`, task_index: i, repeats: [{ repeat: 0, outcome: 'scored', reward: i % 2 }] };
}

test('serveSummary: the head without the tasks, then the tasks in order in slices cut by size, then the digest of the text', async () => {
  const doc = { schema_version: 1, target: 'harbor:x@1', files: { rollouts: 'rollouts.jsonl' }, tasks: Array.from({ length: 450 }, (_, i) => task(i)) };
  const text = JSON.stringify(doc, null, 2) + '\n';
  const msgs = await serve(writeFile(text), undefined, 4000);
  assert.deepEqual(msgs.map((m) => m.kind), ['head', 'tasks', 'end'], 'every slice in one message of MESSAGE_CHARS');
  const n = slicesOf(msgs).length;
  assert.ok(n >= 8, `${n} slices of ~4,000 characters for ~36,000`);
  const head = msgs[0] as Head;
  assert.equal(head.ok, true);
  assert.equal(head.tasks, 450);
  assert.deepEqual(head.problems, []);
  assert.deepEqual(head.value, { ...doc, tasks: undefined });
  assertSlicedBySize(slicesOf(msgs), doc.tasks, 4000);
  assert.deepEqual(msgs[2], { kind: 'end', problems: [], digest: sha256(text) });
  // a message holds slices until it reaches messageChars: one slice each when it is below a slice
  const one = await serve(writeFile(text), undefined, 4000, 1000);
  assert.deepEqual(one.map((m) => m.kind), ['head', ...Array<string>(n).fill('tasks'), 'end']);
  assert.deepEqual(slicesOf(one), slicesOf(msgs));
  const two = await serve(writeFile(text), undefined, 4000, 6000);
  assert.equal(two.length - 2, Math.ceil(n / 2), 'two slices a message');
  assert.deepEqual(slicesOf(two), slicesOf(msgs));
  // by default, slices of SLICE_CHARS
  const byDefault = await serve(writeFile(text));
  assert.ok(slicesOf(byDefault).length >= 2, 'more than one default slice');
  assertSlicedBySize(slicesOf(byDefault), doc.tasks, SLICE_CHARS);
  // asked again after the end: the end again, nothing more of the tasks
  const again = await serve(writeFile(JSON.stringify({ files: {}, tasks: [] })));
  assert.deepEqual(again.map((m) => m.kind), ['head', 'end']);
  assert.equal((again[0] as Head).tasks, 0);
});

test('serveSummary: tasks within one slice\'s size are one slice; the schema\'s problems are in the end, at their lines', async () => {
  const tasks = Array.from({ length: 200 }, (_, i) => task(i));
  assert.ok(JSON.stringify(tasks).length < SLICE_CHARS);
  (tasks[3].repeats as Obj[])[0].reward = '1';
  const text = JSON.stringify({ files: { rollouts: 'r.jsonl' }, tasks }, null, 2);
  const file = writeFile(text);
  const msgs = await serve(file);
  assert.deepEqual(msgs.map((m) => m.kind), ['head', 'tasks', 'end']);
  assert.equal(slicesOf(msgs).length, 1);
  const head = msgs[0] as Head;
  assert.equal(head.ok, true);
  assert.deepEqual(head.problems, [], 'the schema is checked as the tasks are sent');
  const end = msgs[2] as Extract<SummaryMsg, { kind: 'end' }>;
  assert.equal(end.problems.length, 1);
  const p = end.problems[0];
  assert.deepEqual(p.jsonPath, ['tasks', 3, 'repeats', 0, 'reward']);
  assert.equal(p.file, file);
  assert.equal(p.severity, 'warning');
  const here = parseJsonDocument(file, text, 'run summary');
  assert.deepEqual({ line: p.line, column: p.column }, locate(here, ['tasks', 3, 'repeats', 0, 'reward']));
  assert.match(p.message, /run summary/);
});

test('serveSummary: a summary that does not parse, one that is not an object, one without a task list', async () => {
  const broken = await serve(writeFile('{"files": {}, "tasks": [1, 2'));
  assert.deepEqual(broken.map((m) => m.kind), ['head', 'end']);
  const bh = broken[0] as Head;
  assert.equal(bh.ok, false);
  assert.equal(bh.tasks, -1);
  assert.equal(bh.value, undefined);
  assert.deepEqual(bh.problems.map((p) => p.code), ['parse-error']);

  const list = await serve(writeFile('[1, 2]'));
  const lh = list[0] as Head;
  assert.deepEqual([lh.ok, lh.tasks, lh.value, lh.problems], [true, -1, [1, 2], []], 'an array: no schema check, sent whole');

  const noTasks = { files: { rollouts: 'r.jsonl' }, tasks: { a: { repeats: [] } } };
  const obj = await serve(writeFile(JSON.stringify(noTasks)));
  const oh = obj[0] as Head;
  assert.deepEqual(obj.map((m) => m.kind), ['head', 'end']);
  assert.equal(oh.tasks, -1);
  assert.deepEqual(oh.value, noTasks, 'tasks as an object are sent in the head');
  assert.deepEqual(oh.problems, []);

  const missing = await serve(`${tmpRoot}/gone_run_summary.json`);
  assert.deepEqual((missing[0] as Head).problems.map((p) => [p.code, p.message]), [['missing-file', 'the run summary is not on disk']]);
});

test('serveSummary reads at most the job\'s maxBytes', async () => {
  const file = writeFile(JSON.stringify({ files: {}, tasks: [task(0), task(1)] }));
  const small = await serve(file, 20);
  const h = small[0] as Head;
  assert.equal(h.ok, false);
  assert.deepEqual(h.problems.map((p) => p.code), ['too-large']);
  const whole = await serve(file, 1 << 20);
  assert.equal((whole[0] as Head).tasks, 2);
});

test('the digest is the SHA-256 of the whole text, surrogate pairs across the 1M-character pieces kept whole', async () => {
  const PIECE = 1 << 20;
  // A text over 4M characters whose first piece ends on a high surrogate U+D800 and whose second (one shorter, since
  // the pair is kept whole) ends on U+DBFF; many tasks, so the digest is taken a share at a time between slices.
  const tasks = Array.from({ length: 900 }, (_, i) => task(i));
  const head = `{"files": {}, "tasks": ${JSON.stringify(tasks)}, "pad": "`;
  assert.ok(head.length < PIECE - 10);
  const a = 'a'.repeat(PIECE - 1 - head.length) + '\uD800\uDC00';
  const b = 'b'.repeat(PIECE - 3) + '\uDBFF\uDFFF';
  // the third piece (from 2M - 2) ends on the low half of a pair: kept as it is
  const c = 'c'.repeat(PIECE - 4) + '\uD83D\uDE00';
  const text = head + a + b + c + 'd'.repeat(PIECE) + '"}';
  assert.equal(text.charCodeAt(PIECE - 1), 0xd800);
  assert.equal(text.charCodeAt(2 * PIECE - 2), 0xdbff);
  assert.equal(text.charCodeAt(3 * PIECE - 3), 0xde00);
  const file = writeFile(text);
  const msgs = await serve(file, undefined, 16000, 1);
  assert.ok(msgs.filter((m) => m.kind === 'tasks').length >= 4);
  const end = msgs[msgs.length - 1];
  assert.deepEqual(end, { kind: 'end', problems: [], digest: sha256(text) });
  // placeInFile takes the same digest of the file read again
  const places = await placeInFile({ path: file, digest: sha256(text), paths: [['pad'], ['tasks', 899]] });
  assert.equal(places.length, 2);
  assert.ok(places.every((p) => p !== undefined && p.line === 1));
});

test('placeInFile: the paths\' lines while the file is the text digested; none once it changed, is gone or is over maxBytes', async () => {
  const text = '{\n  "files": {\n    "rollouts": "r.jsonl"\n  },\n  "tasks": [\n    {"task_id": "a"},\n    {"task_id": "é😀"}\n  ]\n}\n';
  const file = writeFile(text);
  const digest = sha256(text);
  const paths = [['files', 'rollouts'], ['tasks', 1, 'task_id'], ['nowhere', 3]];
  assert.deepEqual(await placeInFile({ path: file, digest, paths }), [{ line: 3, column: 17 }, { line: 7, column: 17 }, { line: 1, column: 1 }]);
  assert.deepEqual(await placeInFile({ path: file, digest, paths: [] }), []);
  assert.deepEqual(await placeInFile({ path: file, digest, paths, maxBytes: Buffer.byteLength(text) }), [{ line: 3, column: 17 }, { line: 7, column: 17 }, { line: 1, column: 1 }]);
  assert.deepEqual(await placeInFile({ path: file, digest, paths, maxBytes: 10 }), [undefined, undefined, undefined]);
  assert.deepEqual(await placeInFile({ path: file, digest: sha256(`${text} `), paths }), [undefined, undefined, undefined]);
  assert.deepEqual(await placeInFile({ path: `${tmpRoot}/gone.json`, digest, paths }), [undefined, undefined, undefined]);
  // a BOM is part of the text digested (the reader keeps it, as readJsonDocument does)
  const bom = writeFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
  assert.deepEqual(await placeInFile({ path: bom, digest: sha256(`\uFEFF${text}`), paths: [['files']] }), [{ line: 2, column: 12 }]);
  assert.deepEqual(await placeInFile({ path: bom, digest, paths: [['files']] }), [undefined]);
});

test('placeInFile on a file of megabytes, read a piece at a time: every path where the whole text places it, also those cut by a piece or past where it first looks', async () => {
  // ~2.5 MB, multi-byte characters and escaped quotes throughout (a piece's bytes end inside a character), keys after
  // the tasks, a task whose text spans the first megabyte's end
  const tasks = Array.from({ length: 1800 }, (_, i) => ({
    task_id: `t${i}`, note: i % 7 ? 'x'.repeat(900) : `é😀 "q" \\ ${'y'.repeat(3000)}`, repeats: [{ repeat: 0, outcome: 'scored', verifier_logs: `v/${i}` }],
  }));
  const text = JSON.stringify({ missing_paths: ['a', 'b'], tasks, after: { k: [1, 2, 3] } }, null, 2);
  assert.ok(text.length > 2_200_000, String(text.length));
  const file = writeFile(text);
  const whole: JsonDocument = { path: file, text, value: undefined, ok: true, problems: [] };
  const cut = tasks.findIndex((_, i) => text.indexOf(`"t${i}"`) > 1 << 20);
  const paths: (string | number)[][] = [['missing_paths', 1], ['tasks', 0, 'repeats', 0, 'verifier_logs'], ['tasks', cut - 1], ['tasks', cut - 1, 'note'],
    ['tasks', cut, 'repeats', 0, 'outcome'], ['tasks', 1799, 'repeats', 0, 'nope'], ['tasks', 5000], ['after', 'k', 2], ['after', 'k', 9], ['nowhere'], []];
  const want = paths.map((p) => locate(whole, p));
  assert.ok(want.every((w) => w !== undefined));
  assert.deepEqual(await placeInFile({ path: file, digest: sha256(text), paths }), want);
  // only the first path: placed from the first megabyte, the rest of the file digested only
  assert.deepEqual(await placeInFile({ path: file, digest: sha256(text), paths: [paths[0]] }), [want[0]]);
  assert.deepEqual(await placeInFile({ path: file, digest: sha256(`${text}x`), paths: [paths[0]] }), [undefined]);
  // keeping at most the first megabyte (the caller's thread): placed when it places them all, else given up (a worker's)
  assert.deepEqual(await placeInFile({ path: file, digest: sha256(text), paths: paths.slice(0, 2) }, 1 << 20), want.slice(0, 2));
  assert.equal(await placeInFile({ path: file, digest: sha256(text), paths }, 1 << 20), undefined);
  assert.equal(await placeInFile({ path: file, digest: sha256(text), paths: [['after', 'k', 2]] }, 1 << 20), undefined);
});

function problem(file: string, jsonPath: (string | number)[] | undefined, extra: Partial<Problem> = {}): Problem {
  return { file, ...(jsonPath ? { jsonPath } : {}), severity: 'warning', code: 'x', message: 'm', ...extra } as Problem;
}

test('placeDeferred: only the document\'s own problems with a path and no line are placed, each keeping its key order', async () => {
  const asked: (string | number)[][][] = [];
  const doc: JsonDocument = {
    path: '/r/s_run_summary.json', text: '', value: {}, ok: true, problems: [],
    placeLater: async (paths) => { asked.push(paths); return paths.map((p, i) => (p[0] === 'unplaced' ? undefined : { line: 10 + i, column: 2 + i })); },
  };
  const waiting = problem(doc.path, ['tasks', 0]);
  const other = problem('/r/other.json', ['tasks', 0]);
  const placed = problem(doc.path, ['files'], { line: 3, column: 4 });
  const noPath = problem(doc.path, undefined);
  const unplaced = problem(doc.path, ['unplaced']);
  const last = problem(doc.path, ['files', 'rollouts']);
  const problems = [waiting, other, placed, noPath, unplaced, last];
  await placeDeferred(doc, problems);
  assert.deepEqual(asked, [[['tasks', 0], ['unplaced'], ['files', 'rollouts']]]);
  assert.deepEqual(Object.entries(waiting), [['file', doc.path], ['line', 10], ['column', 2], ['jsonPath', ['tasks', 0]], ['severity', 'warning'], ['code', 'x'], ['message', 'm']]);
  assert.deepEqual(last, { file: doc.path, line: 12, column: 4, jsonPath: ['files', 'rollouts'], severity: 'warning', code: 'x', message: 'm' });
  assert.deepEqual(other, problem('/r/other.json', ['tasks', 0]));
  assert.deepEqual(placed, problem(doc.path, ['files'], { line: 3, column: 4 }));
  assert.deepEqual(noPath, problem(doc.path, undefined));
  assert.deepEqual(unplaced, problem(doc.path, ['unplaced']));
  assert.equal(problems.length, 6);
});

test('placeDeferred: nothing to do without placeLater; a placeLater that fails leaves the problems without a line', async () => {
  const p = problem('/r/a.json', ['x']);
  await placeDeferred({ path: '/r/a.json', text: '{"x": 1}', value: { x: 1 }, ok: true, problems: [] }, [p]);
  assert.deepEqual(p, problem('/r/a.json', ['x']));
  const failing: JsonDocument = { path: '/r/a.json', text: '', value: {}, ok: true, problems: [], placeLater: () => Promise.reject(new Error('gone')) };
  await placeDeferred(failing, [p]);
  assert.deepEqual(p, problem('/r/a.json', ['x']));
});

test('readSummaryDocument reads on this thread a small summary, a port whose paths Node does not read, and a folder', async () => {
  const text = JSON.stringify({ files: {}, tasks: [task(0)] });
  const file = writeFile(text);
  const nfs = new NodeFs();
  assert.ok(text.length < SUMMARY_WORKER_MIN_BYTES);
  const small = await readSummaryDocument(nfs, file);
  assert.equal(small.validated, false);
  assert.equal(small.doc.placeLater, undefined);
  assert.deepEqual(small.doc.value, JSON.parse(text));
  assert.equal(small.doc.text, text);
  // the worker from this size on: the same value, validated there, its text let go
  const big = await readSummaryDocument(nfs, file, text.length);
  assert.equal(big.validated, true);
  assert.deepEqual(big.doc.value, JSON.parse(text));
  assert.equal(typeof big.doc.placeLater, 'function');
  assert.deepEqual(await big.doc.placeLater!([]), []);
  assert.equal((await readSummaryDocument(nfs, file, text.length + 1)).validated, false);
  // a port that is not Node's own (as VS Code's remote file system): never the worker, however small minBytes is
  const remote = Object.create(nfs, { nodeLocal: { value: false } }) as FsPort;
  const r = await readSummaryDocument(remote, file, 0);
  assert.equal(r.validated, false);
  assert.deepEqual(r.doc.value, JSON.parse(text));
  // a folder where the summary should be: read here (and said to be unreadable), not sent to a worker
  const dir = `${tmpRoot}/folder_run_summary.json`;
  fs.mkdirSync(dir);
  const d = await readSummaryDocument(nfs, dir, 0);
  assert.equal(d.validated, false);
  assert.equal(d.doc.ok, false);
  // a file that is not there: read here too
  const gone = await readSummaryDocument(nfs, `${tmpRoot}/none_run_summary.json`, 0);
  assert.deepEqual([gone.validated, gone.doc.problems.map((p) => p.code)], [false, ['missing-file']]);
});

test('a small summary read on the worker (any size from 0): the same run, its schema problems said once, at their lines', async () => {
  const text = JSON.stringify({ files: {}, target: 5, tasks: [{ task_id: 'a', repeats: [{ repeat: 0, outcome: 'scored', reward: '1' }] }] }, null, 2);
  const file = writeFile(text);
  const here = await readRunSummary(new NodeFs(), file, Infinity);
  const there = await readRunSummary(new NodeFs(), file, 0);
  assert.deepEqual(here.problems.map((p) => [p.code, p.jsonPath]), [['schema', ['target']], ['schema', ['tasks', 0, 'repeats', 0, 'reward']]]);
  assert.ok(here.problems.every((p) => typeof p.line === 'number' && p.line > 1));
  assert.equal(JSON.stringify(there), JSON.stringify(here));
});
