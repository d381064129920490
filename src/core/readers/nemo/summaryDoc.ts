// A NeMo Gym run summary read off the caller's thread (docs/formats.md#nemo-gym): at 40,000 repeats the summary is
// ~40 MB, and decoding, parsing, the honesty checks and the schema held the extension host for seconds in one piece.
// On a port whose paths Node reads (FsPort.nodeLocal) a large summary is read, parsed and validated on a worker
// thread (summaryDocWorker.ts, bundled as out/summaryDocWorker.js); its value comes back in slices of tasks, each a
// JSON text parsed in its own turn of the caller's event loop (a structured clone of the same objects cost the caller
// more time, and kept ~0.9 KiB more per repeat: its strings are not shared as JSON.parse's keys are), and the 40 MB text stays on the worker: a problem found later
// is placed at its line by asking the worker (JsonDocument.placeLater), once, at the end of the read. A small
// summary, another port, or where no worker can start: read on this thread, with the same answers.
import { Worker } from 'node:worker_threads';
import type { FsPort } from '../../fs/port';
import { NodeFs } from '../../fs/nodeFs';
import type { Problem } from '../../model';
import { issueProblems, locate, readJsonDocument, type JsonDocument } from '../jsonFile';
import { SummaryReadSchema, isObj } from './summaryShape';
import { workerBundle } from '../../fs/workerBundle';

/** Summaries smaller than this are read on this thread (starting a worker costs more than it saves). */
export const SUMMARY_WORKER_MIN_BYTES = 1 << 20;
/** Tasks per message from the worker (a few ms of the caller's thread each). */
const TASKS_PER_MESSAGE = 200;
const WHAT = 'run summary';
const WORKER_FILE = 'summaryDocWorker.js';

export interface SummaryJob { path: string; maxBytes?: number }

type JsonPath = (string | number)[];
type Place = { line: number; column: number } | undefined;

/** Caller → worker, after the job: the next slice, or where these paths are. */
export type WorkerAsk = { more: true } | { paths: JsonPath[] };

/** Worker → caller. */
export type SummaryMsg =
  | { kind: 'head'; ok: boolean; problems: Problem[]; value: unknown; tasks: number }
  | { kind: 'tasks'; json: string }
  | { kind: 'end' }
  | { kind: 'places'; places: Place[] }
  | { kind: 'failed'; message: string };

/** The worker bundle (src/core/fs/workerBundle.ts). */
export function summaryDocWorkerFile(): string | undefined {
  return workerBundle(WORKER_FILE);
}

/**
 * The summary's document: from the worker when the port's paths are Node's and the file is ≥ `minBytes`, else read
 * here. `validated`: the schema's problems are already among the document's (the worker checked it).
 */
export async function readSummaryDocument(fs: FsPort, path: string, minBytes = SUMMARY_WORKER_MIN_BYTES): Promise<{ doc: JsonDocument; validated: boolean }> {
  const file = fs.nodeLocal ? summaryDocWorkerFile() : undefined;
  const st = file ? await fs.stat(path) : undefined;
  if (file && st?.type === 'file' && st.size >= minBytes) {
    try {
      return { doc: await onWorker(file, { path, maxBytes: fs.maxFileBytes }), validated: true };
    } catch {
      // no worker thread here (or it failed before the document was whole): the same answers on this thread
    }
  }
  return { doc: await readJsonDocument(fs, path, WHAT), validated: false };
}

function onWorker(file: string, job: SummaryJob): Promise<JsonDocument> {
  return new Promise<JsonDocument>((resolve, reject) => {
    const w = new Worker(file);
    let doc: JsonDocument | undefined;
    let tasks: unknown[] = [];
    let placed: ((p: Place[]) => void) | undefined;
    let ended = false;
    const stop = () => { if (!ended) { ended = true; void w.terminate(); } placed?.([]); placed = undefined; };
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
        w.unref();
        const whole = doc!;
        tasks = [];
        whole.placeLater = (paths) => {
          if (ended || paths.length === 0) { stop(); return Promise.resolve(paths.map(() => undefined)); }
          w.ref(); // the answer keeps the process alive (a CLI would end without it)
          return new Promise<Place[]>((res) => { placed = (p) => { placed = undefined; res(p); stop(); }; w.postMessage({ paths }); });
        };
        whole.release = stop;
        doc = undefined; // this listener lives as long as the worker: it must not hold the document
        resolve(whole);
      } else if (m.kind === 'places') {
        placed?.(m.places);
      } else {
        stop();
        reject(new Error(m.message));
      }
    });
    w.once('error', (e) => { stop(); reject(e); });
    w.once('exit', () => { ended = true; placed?.([]); reject(new Error('the summary worker exited')); });
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
 * time the caller asks), then place the paths the caller asks about.
 */
export async function serveSummary(job: SummaryJob, post: (m: SummaryMsg) => void, onAsk: (f: (m: WorkerAsk) => void) => void): Promise<void> {
  const doc = await readJsonDocument(new NodeFs(job.maxBytes !== undefined ? { maxFileBytes: job.maxBytes } : {}), job.path, WHAT);
  const problems = [...doc.problems];
  let value = doc.value;
  if (doc.ok && isObj(value)) {
    const parsed = SummaryReadSchema.safeParse(value);
    if (!parsed.success) problems.push(...issueProblems(doc, parsed.error.issues, WHAT));
  }
  let all = isObj(value) && Array.isArray(value.tasks) ? value.tasks as unknown[] | undefined : undefined;
  post({ kind: 'head', ok: doc.ok, problems, value: all ? { ...value as Record<string, unknown>, tasks: undefined } : value, tasks: all ? all.length : -1 });
  value = undefined;
  doc.value = undefined; // the text stays (for the positions asked later); the tree goes once sent
  let next = 0;
  onAsk((m) => {
    if ('paths' in m) { post({ kind: 'places', places: m.paths.map((p) => locate(doc, p)) }); return; }
    if (all && next < all.length) { post({ kind: 'tasks', json: JSON.stringify(all.slice(next, next + TASKS_PER_MESSAGE)) }); next += TASKS_PER_MESSAGE; return; }
    all = undefined;
    post({ kind: 'end' });
  });
}
