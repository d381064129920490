// A NeMo Gym run summary read off the caller's thread (docs/formats.md#nemo-gym): at 40,000 repeats the summary is
// ~40 MB, and decoding, parsing, the honesty checks and the schema held the extension host for seconds in one piece.
// On a port whose paths Node reads (FsPort.nodeLocal) a large summary is read, parsed and validated on a worker
// thread (summaryDocWorker.ts, bundled as out/summaryDocWorker.js); its value comes back in slices of tasks, each a
// JSON text of about SLICE_CHARS parsed in its own turn of the caller's event loop (../../jsonSlices.ts; a structured
// clone of the same objects cost the caller more time, and kept ~0.9 KiB more per repeat: its strings are not shared
// as JSON.parse's keys are). Each task is let go on the worker once sent, and the worker ends with the last slice:
// its heap (the 40 MB text, the parsed tree, the schema's copy: ~170 MB at 40,000 repeats) is not held beside the
// caller's model while the caller reads on. A problem found later is placed at its line by a second worker that reads
// the file again (JsonDocument.placeLater; placeInFile.ts: a piece at a time, keeping only as much text as the paths
// need), once, at the end of the read, and only when the text is the one parsed (its digest); a file changed since
// leaves the problems without a line. A small summary, another port, or where no
// worker can start: read on this thread, same answers. A viewer dataset's summary.json (as large at 10,000 tasks) is
// read the same way: `kind` says which document it is and what the worker checks (../largeDocs.ts).
import { createHash } from 'node:crypto';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { FsPort } from '../../fs/port';
import { NodeFs } from '../../fs/nodeFs';
import type { Problem } from '../../model';
import { parseJsonDocument, readJsonDocument, type JsonDocument } from '../jsonFile';
import { invalidUtf8At, lineOfByte } from '../../honestInput';
import { isObj } from './summaryShape';
import { LARGE_DOCS, type LargeDocKind } from '../largeDocs';
import { workerBundle } from '../../fs/workerBundle';
import { jsonSlice } from '../../jsonSlices';
import { placeInFile } from './placeInFile';

export { placeInFile };

/** Summaries smaller than this are read on this thread (starting a worker costs more than it saves). */
export const SUMMARY_WORKER_MIN_BYTES = 1 << 20;
const WORKER_FILE = 'summaryDocWorker.js';

/** `sliceChars`: characters of JSON per slice of tasks (default SLICE_CHARS; tests give a small one). */
export interface SummaryJob { path: string; maxBytes?: number; kind?: LargeDocKind; sliceChars?: number }
/** A second worker's job: place these paths in the file, if its text is still the one parsed (`digest`). */
export interface PlaceJob { path: string; maxBytes?: number; digest: string; paths: JsonPath[] }

/** Summary worker threads started and not exited yet (a test checks that none is left behind). */
let running = 0;
export function summaryWorkersRunning(): number {
  return running;
}

/** A summary worker thread, counted in `running` until it exits. */
function startWorker(file: string): Worker {
  const w = new Worker(file);
  running++;
  w.once('exit', () => { running--; });
  return w;
}

type JsonPath = (string | number)[];
type Place = { line: number; column: number } | undefined;

/** Caller → worker, after the job: the next slice. */
export type WorkerAsk = { more: true };

/** Worker → caller. */
export type SummaryMsg =
  | { kind: 'head'; ok: boolean; problems: Problem[]; value: unknown; tasks: number }
  | { kind: 'tasks'; json: string }
  | { kind: 'end'; digest: string }
  | { kind: 'places'; places: Place[] }
  | { kind: 'failed'; message: string };

/** The worker bundle (src/core/fs/workerBundle.ts). */
export function summaryDocWorkerFile(): string | undefined {
  return workerBundle(WORKER_FILE);
}

/**
 * The summary's document: from the worker when the port's paths are Node's and the file is ≥ `minBytes`, else read
 * here (also when the worker fails). `validated`: the schema's problems are already among the document's (the worker
 * checked it). `workerFile`, `placeFile`: the summary worker's and the placing worker's scripts (by default both the
 * bundle; tests give ones that fail). `kind`: which document (largeDocs.ts).
 */
export async function readSummaryDocument(fs: FsPort, path: string, minBytes = SUMMARY_WORKER_MIN_BYTES,
  workerFile?: string, placeFile?: string, kind: LargeDocKind = 'nemo-summary'): Promise<{ doc: JsonDocument; validated: boolean }> {
  const file = fs.nodeLocal ? workerFile ?? summaryDocWorkerFile() : undefined;
  const st = file ? await fs.stat(path) : undefined;
  if (file && st?.type === 'file' && st.size >= minBytes) {
    try {
      return { doc: await onWorker(file, placeFile ?? file, { path, maxBytes: fs.maxFileBytes, kind }), validated: true };
    } catch {
      // no worker thread here (or it failed before the document was whole): the same answers on this thread
    }
  }
  return { doc: await readJsonDocument(fs, path, LARGE_DOCS[kind].what), validated: false };
}

function onWorker(file: string, placeFile: string, job: SummaryJob): Promise<JsonDocument> {
  return new Promise<JsonDocument>((resolve, reject) => {
    const w = startWorker(file);
    let doc: JsonDocument | undefined;
    let tasks: unknown[] = [];
    let ended = false;
    const stop = () => { if (!ended) { ended = true; void w.terminate(); } };
    w.on('message', (m: SummaryMsg) => {
      if (m.kind === 'head') {
        doc = { path: job.path, text: '', value: m.value, ok: m.ok, problems: m.problems };
        if (m.tasks >= 0) (m.value as Record<string, unknown>).tasks = tasks;
        setImmediate(() => w.postMessage({ more: true }));
      } else if (m.kind === 'tasks') {
        // The next slice is asked for now (the worker makes it while this one is parsed), one at a time: Node hands
        // every queued message over in one go, so sending them all at once parsed the whole document in one block.
        w.postMessage({ more: true });
        for (const t of JSON.parse(m.json) as unknown[]) tasks.push(t);
      } else if (m.kind === 'end') {
        stop();
        const whole = doc!;
        tasks = [];
        const { digest } = m;
        whole.placeLater = (paths) => paths.length === 0 ? Promise.resolve([]) : placeHereOrOnWorker(placeFile, { ...job, digest, paths });
        doc = undefined;
        resolve(whole);
      } else if (m.kind !== 'places') { // (places: only a placing worker sends them)
        stop();
        reject(new Error(m.message));
      }
    });
    w.once('error', (e) => { stop(); reject(e); });
    w.once('exit', () => { ended = true; reject(new Error('the summary worker exited')); });
    w.postMessage(job);
  });
}

/**
 * The digest that says a text is the one parsed (SHA-256 of its UTF-8), taken 1M characters at a time (no copy of the
 * text whole): `step(n)` hashes about n more characters, `done()` the rest and says the digest.
 */
function textDigest(text: string): { step(chars: number): void; done(): string } {
  const h = createHash('sha256');
  const PIECE = 1 << 20;
  let i = 0;
  const step = (chars: number) => {
    const stop = Math.min(i + chars, text.length);
    while (i < stop) {
      let end = Math.min(i + PIECE, text.length);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--; // a surrogate pair kept whole
      h.update(text.slice(i, end));
      i = end;
    }
  };
  return { step, done: () => { step(text.length); return h.digest('hex'); } };
}

/** Characters of the file's start the caller's thread keeps to place paths; a path further in is placed on a worker. */
export const PLACE_HERE_CHARS = 1 << 20;

/**
 * Placed on this thread when the file's first PLACE_HERE_CHARS place every path (the missing_paths of a run summary,
 * before its tasks: the file is then only digested here, in small pieces), else on a worker (the text and its line
 * index off this thread).
 */
async function placeHereOrOnWorker(file: string, job: PlaceJob): Promise<Place[]> {
  const here = await placeInFile(job, PLACE_HERE_CHARS);
  return here ?? placeOnWorker(file, job);
}

/** placeInFile on a worker (the 40 MB text and its line index off the caller's thread), or here when none starts. */
function placeOnWorker(file: string, job: PlaceJob): Promise<Place[]> {
  return new Promise<Place[]>((resolve) => {
    let done = false;
    const finish = (p: Place[] | undefined) => {
      if (done) return;
      done = true;
      void w?.terminate();
      if (p) resolve(p);
      else placeInFile(job).then(resolve, () => resolve(job.paths.map(() => undefined)));
    };
    let w: Worker | undefined;
    try {
      w = startWorker(file);
    } catch {
      finish(undefined);
      return;
    }
    w.on('message', (m: SummaryMsg) => finish(m.kind === 'places' ? m.places : undefined));
    w.once('error', () => finish(undefined));
    w.once('exit', () => finish(undefined));
    w.postMessage(job);
  });
}

/**
 * The problems about the document placed later (JsonDocument.placeLater) get their line and column now, each keeping
 * its place among its keys (file, line, column, jsonPath, …) as problemAt would have written it.
 */
export async function placeDeferred(doc: JsonDocument, problems: Problem[]): Promise<void> {
  if (!doc.placeLater) return;
  const waiting = problems.filter((p) => p.file === doc.path && p.jsonPath && p.line === undefined);
  let places: Place[] = [];
  try { places = await doc.placeLater(waiting.map((p) => p.jsonPath as JsonPath)); } catch { /* left without a line */ }
  waiting.forEach((p, i) => {
    const at = places[i];
    if (!at) return;
    const { file, ...rest } = p;
    for (const k of Object.keys(p)) delete (p as unknown as Record<string, unknown>)[k];
    Object.assign(p, { file, line: at.line, column: at.column, ...rest });
  });
}

/**
 * The worker's side: read and parse with Node's port, check the schema, send the value in slices (the next one each
 * time the caller asks, each task let go once sent), then the text's digest (for placing problems later).
 */
export async function serveSummary(job: SummaryJob, post: (m: SummaryMsg) => void, onAsk: (f: (m: WorkerAsk) => void) => void): Promise<void> {
  const kind = LARGE_DOCS[job.kind ?? 'nemo-summary'];
  const doc = await readReleasing(new NodeFs(job.maxBytes !== undefined ? { maxFileBytes: job.maxBytes } : {}), job.path, kind.what);
  const problems = [...doc.problems];
  let value = doc.value;
  if (doc.ok) problems.push(...await kind.schemaProblems(doc));
  let all = isObj(value) && Array.isArray(value.tasks) ? value.tasks as unknown[] | undefined : undefined;
  post({ kind: 'head', ok: doc.ok, problems, value: all ? { ...value as Record<string, unknown>, tasks: undefined } : value, tasks: all ? all.length : -1 });
  value = undefined;
  doc.value = undefined; // the tree goes as it is sent
  // The digest is taken a share at a time after each slice is sent (while the caller parses it), not all at the end.
  const digest = textDigest(doc.text);
  const perTask = doc.text.length / (all?.length || 1);
  doc.text = '';
  let next = 0;
  onAsk(() => {
    if (all && next < all.length) {
      const { json, end } = jsonSlice(all, next, job.sliceChars);
      post({ kind: 'tasks', json });
      all.fill(undefined, next, end); // the caller has its own copy
      digest.step(Math.ceil(perTask * (end - next)));
      next = end;
      return;
    }
    all = undefined;
    post({ kind: 'end', digest: digest.done() });
  });
}

/**
 * The document as readJsonDocument reads it, its bytes let go once decoded, before the parse: left to the collector,
 * the 40 MB of a 40,000-repeat summary's bytes were still held beside its text, its tree and the schema's check (the
 * worker's RSS 202 MB when it sent the head, 164 MB after a collection). Let go by handing them to a message that is
 * never read (a closed channel frees it).
 */
async function readReleasing(fs: NodeFs, path: string, what: string): Promise<JsonDocument> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(path);
  } catch {
    return readJsonDocument(fs, path, what); // its problem, said as it says it
  }
  const bad = invalidUtf8At(bytes);
  const badUtf8Line = bad >= 0 ? lineOfByte(bytes, bad) : undefined;
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes); // the BOM kept, as readJsonDocument keeps it
  await letGo(bytes.buffer);
  return parseJsonDocument(path, text, what, badUtf8Line);
}

/** Frees an ArrayBuffer's memory now (not at the next collection); the buffer is detached. */
export function letGo(buffer: ArrayBufferLike): Promise<void> {
  return new Promise<void>((resolve) => {
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage(null, [buffer as ArrayBuffer]);
    } catch {
      // not transferable (a shared buffer): left to the collector
    }
    const timer = setTimeout(resolve, 100);
    port2.once('close', () => { clearTimeout(timer); resolve(); });
    port1.close();
    port2.close();
  });
}
