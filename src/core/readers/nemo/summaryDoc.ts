// A NeMo Gym run summary read off the caller's thread (docs/formats.md#nemo-gym): at 40,000 repeats the summary is
// ~40 MB, and decoding, parsing, the honesty checks and the schema held the extension host for seconds in one piece.
// On a port whose paths Node reads (FsPort.nodeLocal) a large summary is read and parsed on a worker thread
// (summaryDocWorker.ts, bundled as out/summaryDocWorker.js). The caller has the document as soon as the worker has
// parsed it (its head: the value without its task list) and reads the run's other files meanwhile; the tasks follow
// in slices, each a JSON text of about SLICE_CHARS, several to a message (as UTF-8 bytes, freed with its last slice),
// each decoded and parsed as the reader wants more tasks (openSummaryDocument's `feed`; ../../jsonSlices.ts; a structured clone of the same
// objects cost the caller more time, and kept ~0.9 KiB more per repeat: its strings are not shared as JSON.parse's
// keys are). The worker checks each slice's tasks against the schema once sent, lets them go, and ends with its last
// message (the schema's problems, the text's digest): its heap (the parsed tree, ~170 MB at 40,000 repeats) is not
// held while the caller reads on, nor its text once digested. A problem found later is placed at its line by reading
// the file again (JsonDocument.placeLater; placeInFile.ts: a piece at a time, keeping only as much text as the paths
// need, on a second worker unless the first megabyte places them all), once, at the end of the read, and only when
// the text is the one parsed (its digest); a file changed since leaves the problems without a line. A small summary,
// another port, or where no worker can start: read on this thread, same answers. A viewer dataset's summary.json (as
// large at 10,000 tasks) is read the same way: `kind` says which document it is and what the worker checks
// (../largeDocs.ts).
import { createHash } from 'node:crypto';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { FsPort } from '../../fs/port';
import { NodeFs } from '../../fs/nodeFs';
import type { Problem } from '../../model';
import { issueProblems, locate, parseJsonDocument, readJsonDocument, type IssueLike, type JsonDocument } from '../jsonFile';
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

/** `sliceChars`, `messageChars`: characters of JSON per slice of tasks and per message of slices (default SLICE_CHARS,
 * MESSAGE_CHARS; tests give small ones). */
export interface SummaryJob { path: string; maxBytes?: number; kind?: LargeDocKind; sliceChars?: number; messageChars?: number }
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

/** Caller → worker, after the job: the next slices. */
export type WorkerAsk = { more: true };

/** Worker → caller. */
export type SummaryMsg =
  | { kind: 'head'; ok: boolean; problems: Problem[]; value: unknown; tasks: number }
  | { kind: 'tasks'; bytes: Uint8Array; ends: number[] }
  | { kind: 'end'; digest: string; problems: Problem[] }
  | { kind: 'places'; places: Place[] }
  | { kind: 'failed'; message: string };

/** Characters of JSON per message of slices (each slice is parsed on its own, when its tasks are wanted). */
export const MESSAGE_CHARS = 1 << 20;

/**
 * Messages of slices asked for ahead: the worker is not left waiting while the caller is in a long turn (it ends, and
 * its heap goes, sooner: ~0.4 s of 2.4 idle with one at a time at 40,000 repeats), and at most this many are handed
 * over in one turn.
 */
const MESSAGES_AHEAD = 4;

/** The worker bundle (src/core/fs/workerBundle.ts). */
export function summaryDocWorkerFile(): string | undefined {
  return workerBundle(WORKER_FILE);
}

/**
 * The tasks of a summary the worker is still sending, and its schema's problems (the worker checks each slice of
 * tasks as it sends it): the value's task list holds the tasks parsed so far.
 */
export interface TaskFeed {
  /** The next slice of tasks parsed onto the value's task list; false once every task is on it. */
  more(): Promise<boolean>;
  /** The schema's problems, placed where the document's own problems are (after them); every task is in once it answers. */
  late(): Promise<Problem[]>;
}

/** A summary's document as soon as its head is known; with a `feed` while its tasks are still coming. */
export interface OpenedSummary { doc: JsonDocument; validated: boolean; feed?: TaskFeed }

/**
 * The summary's document: from the worker when the port's paths are Node's and the file is ≥ `minBytes`, else read
 * here (also when the worker fails before the head). `validated`: the schema is checked where it was parsed (its
 * problems are the feed's `late`, or already among the document's). `workerFile`, `placeFile`: the summary worker's and
 * the placing worker's scripts (by default both the bundle; tests give ones that fail). `kind`: which document
 * (largeDocs.ts). From the worker the document comes with its head (everything but the task list) while the worker
 * still sends the tasks in slices: the caller reads the run's other files and its first tasks meanwhile (`feed`).
 */
export async function openSummaryDocument(fs: FsPort, path: string, minBytes = SUMMARY_WORKER_MIN_BYTES,
  workerFile?: string, placeFile?: string, kind: LargeDocKind = 'nemo-summary'): Promise<OpenedSummary> {
  const file = fs.nodeLocal ? workerFile ?? summaryDocWorkerFile() : undefined;
  const st = file ? await fs.stat(path) : undefined;
  const what = LARGE_DOCS[kind].what;
  if (file && st?.type === 'file' && st.size >= minBytes) {
    try {
      return await onWorker(file, placeFile ?? file, { path, maxBytes: fs.maxFileBytes, kind }, () => readJsonDocument(fs, path, what));
    } catch {
      // no worker thread here (or it failed before the head): the same answers on this thread
    }
  }
  return { doc: await readJsonDocument(fs, path, what), validated: false };
}

/** openSummaryDocument with every task in: the schema's problems among the document's. */
export async function readSummaryDocument(fs: FsPort, path: string, minBytes = SUMMARY_WORKER_MIN_BYTES,
  workerFile?: string, placeFile?: string, kind: LargeDocKind = 'nemo-summary'): Promise<{ doc: JsonDocument; validated: boolean }> {
  const { doc, validated, feed } = await openSummaryDocument(fs, path, minBytes, workerFile, placeFile, kind);
  if (feed) doc.problems.push(...await feed.late());
  return { doc, validated };
}

/**
 * The worker's side, seen from the caller: resolved with the head; each message of slices is asked for as the last
 * arrives (the worker makes the next while the caller works), kept as text and parsed a slice at a time when the
 * reader wants more tasks; the worker is ended with its last message. A worker that fails after the head: the file
 * is read again on this thread and its tasks from where the slices stopped are the rest (`again`).
 */
function onWorker(file: string, placeFile: string, job: SummaryJob, again: () => Promise<JsonDocument>): Promise<OpenedSummary> {
  return new Promise<OpenedSummary>((resolve, reject) => {
    const w = startWorker(file);
    let doc: JsonDocument | undefined;
    const list: unknown[] = [];
    // The slices not parsed yet, as UTF-8 bytes (a message's, handed over): not strings on this thread's heap, where,
    // read long after they came, they were old-generation garbage; each message's bytes are freed with its last slice.
    let queue: { bytes: Uint8Array; start: number; end: number; last: boolean }[] = [];
    let taken = 0;
    const utf8 = new TextDecoder();

    let end: { digest?: string; problems: Problem[]; here?: JsonDocument } | undefined;
    let broken = false;
    let waiting: (() => void)[] = [];
    let stopped = false;
    const stop = () => { if (!stopped) { stopped = true; void w.terminate(); } };
    const rouse = () => { const ws = waiting; waiting = []; for (const f of ws) f(); };
    const fail = (e: unknown) => {
      stop();
      if (!doc) reject(e);
      else if (!end) { broken = true; rouse(); }
    };
    const takeOver = async (): Promise<boolean> => {
      const here = await again();
      const v = here.value;
      const from = list.length;
      if (here.ok && isObj(v) && Array.isArray(v.tasks)) for (let i = from; i < v.tasks.length; i++) list.push(v.tasks[i]);
      end ??= { problems: here.ok ? await LARGE_DOCS[job.kind ?? 'nemo-summary'].schemaProblems(here) : [], here };
      return list.length > from;
    };
    const more = async (): Promise<boolean> => {
      for (;;) {
        if (taken < queue.length) {
          const { bytes, start, end: stop, last } = queue[taken];
          queue[taken++] = undefined!;
          if (taken === queue.length) { queue = []; taken = 0; }
          const json = utf8.decode(bytes.subarray(start, stop));
          if (last) void letGo(bytes.buffer);
          for (const t of JSON.parse(json) as unknown[]) list.push(t);
          return true;
        }
        if (end) return false;
        if (broken) return takeOver();
        await new Promise<void>((r) => waiting.push(r));
      }
    };
    const late = async (): Promise<Problem[]> => {
      while (await more()) { /* every task in */ }
      return end!.problems;
    };
    const placeLater = async (paths: JsonPath[]): Promise<Place[]> => {
      if (paths.length === 0) return [];
      await late();
      const here = end!.here;
      return here ? paths.map((p) => locate(here, p)) : placeHereOrOnWorker(placeFile, { ...job, digest: end!.digest!, paths });
    };
    w.on('message', (m: SummaryMsg) => {
      if (m.kind === 'head') {
        doc = { path: job.path, text: '', value: m.value, ok: m.ok, problems: m.problems, placeLater };
        if (m.tasks >= 0) (m.value as Record<string, unknown>).tasks = list;
        setImmediate(() => { for (let i = 0; i < MESSAGES_AHEAD; i++) w.postMessage({ more: true }); });
        resolve({ doc, validated: true, feed: { more, late } });
      } else if (m.kind === 'tasks') {
        // The next message is asked for now (the worker makes it while this one waits to be read), MESSAGES_AHEAD
        // at a time: Node hands every queued message over in one go.
        w.postMessage({ more: true });
        m.ends.forEach((e, i) => queue.push({ bytes: m.bytes, start: i ? m.ends[i - 1] : 0, end: e, last: i === m.ends.length - 1 }));
        rouse();
      } else if (m.kind === 'end') {
        if (end) return; // (asked again after its last slices: the end again)
        stop();
        end = { digest: m.digest, problems: m.problems };
        rouse();
      } else if (m.kind !== 'places') { // (places: only a placing worker sends them)
        fail(new Error(m.message));
      }
    });
    w.once('error', fail);
    w.once('exit', () => fail(new Error('the summary worker exited')));
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
 * The worker's side: read and parse with Node's port, send the head (the value without its task list, the parse's
 * problems), then the tasks in slices, a message of them each time the caller asks (each slice's tasks checked
 * against the schema once sent, then let go), then the schema's problems and the text's digest (for placing problems
 * later). The text goes once its digest is taken (after the first message): the schema's problems, rare in a large
 * summary, are placed in the file read again, when it is still the text digested (else left for the caller to place).
 */
export async function serveSummary(job: SummaryJob, post: (m: SummaryMsg, transfer?: ArrayBuffer[]) => void,
  onAsk: (f: (m: WorkerAsk) => void) => void): Promise<void> {
  const kind = LARGE_DOCS[job.kind ?? 'nemo-summary'];
  const nfs = new NodeFs(job.maxBytes !== undefined ? { maxFileBytes: job.maxBytes } : {});
  const doc = await readReleasing(nfs, job.path, kind.what);
  const value = doc.value;
  let all = isObj(value) && Array.isArray(value.tasks) ? value.tasks as unknown[] | undefined : undefined;
  const check = doc.ok ? kind.inParts(value) : undefined;
  post({ kind: 'head', ok: doc.ok, problems: doc.problems, value: all ? { ...value as Record<string, unknown>, tasks: undefined } : value, tasks: all ? all.length : -1 });
  doc.value = undefined; // the tree goes as it is sent
  let digest: string | undefined;
  const letTextGo = () => {
    digest ??= textDigest(doc.text).done();
    doc.text = '';
  };
  let reread: Promise<JsonDocument> | undefined;
  const again = () => (reread ??= readReleasing(nfs, job.path, kind.what));
  const placed = async (issues: IssueLike[]): Promise<Problem[]> => {
    if (!issues.length) return [];
    const d = await again();
    const same = d.ok && textDigest(d.text).done() === digest;
    return issueProblems(same ? d : { ...d, ok: true, placeLater: () => Promise.resolve([]) }, issues, kind.schemaWhat);
  };
  let next = 0;
  let end: Promise<SummaryMsg> | undefined;
  onAsk(() => {
    if (all && next < all.length) {
      const from = next;
      const jsons: string[] = [];
      const ends: number[] = [];
      for (let size = 0; next < all.length && size < (job.messageChars ?? MESSAGE_CHARS);) {
        const { json, end: upTo } = jsonSlice(all, next, job.sliceChars);
        jsons.push(json);
        ends.push((ends.length ? ends[ends.length - 1] : 0) + Buffer.byteLength(json));
        size += json.length;
        next = upTo;
      }
      // Each slice encoded into the message's own buffer where it goes: the slices joined into one string first (then
      // flattened and encoded) cost 2-3x the writes (~0.2 s of this thread at 40,000 repeats).
      const bytes = Buffer.allocUnsafeSlow(ends.length ? ends[ends.length - 1] : 0);
      for (let k = 0, at = 0; k < jsons.length; k++) at += bytes.write(jsons[k], at);
      post({ kind: 'tasks', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), ends }, [bytes.buffer as ArrayBuffer]);
      letTextGo();
      for (let i = from; i < next; i++) check!.task(all[i], i);
      all.fill(undefined, from, next); // the caller has its own copy
      return;
    }
    all = undefined;
    letTextGo();
    end ??= (async (): Promise<SummaryMsg> => {
      const issues = check ? await check.issues(async () => (await again()).value) : [];
      return { kind: 'end', problems: await placed(issues), digest: digest! };
    })();
    end.then(post, (e: unknown) => post({ kind: 'failed', message: String((e as Error)?.message ?? e) }));
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
