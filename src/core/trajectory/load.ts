// Builds the TrajectoryView of a trajectory file: reads it (bounded), joins its continuations
// (continued_trajectory_ref → trajectory.cont-N.json), folds copied-context steps that repeat earlier ones, resolves
// subagent references (by path, by embedded trajectory_id, v1.6 session-only refs accepted but not resolvable),
// recounts the totals and compares them with final_metrics. Never throws on bad data: what does not parse becomes
// a Problem with its file and JSON pointer. Every loop is bounded (files, depth, bytes).
// The trajectory itself is streamed (scan.ts): its steps join the view one by one as they are read, and `onProgress`
// sees the view grow (the editor's first screen), then continuations and subagents follow and the recount completes.
import * as path from 'node:path';
import type { TimelineFile, TrajectoryView } from './types';
import { isObj, own, pointer, str, type Obj } from './json';
import { detect } from './detect';
import { partsText, readStep, type StepContext } from './steps';
import { addTotals, disagreements, emptyTotals, stepTotals } from './recount';
import { keptStreamed, keptText, openBytes, type KeptDoc, type TrajectoryFs } from './read';
import { streamObject, type Span } from './scan';
import { resolveSubagents, type Embedded, type SubagentRef } from './subagents';
import { byteWarnings } from './honest';
import { DEFAULT_LIMITS, parseWhole, readJson, readWarnings, refusedOutside, type Budget, type LoadLimits } from './budgetRead';

export type { TrajectoryFs } from './read';
export type { KeptDoc } from './read';
export { DEFAULT_LIMITS, type Budget, type LoadLimits } from './budgetRead';

/** How far the reading of the trajectory's own file is. */
export interface LoadProgress { steps: number; bytesRead: number; bytesTotal: number }

/**
 * Called with the (growing) view: after the first PAGE steps, then at most every PROGRESS_MS while reading. Reading
 * waits for a promise it returns (the editor's worker lets the first screen be drawn before it reads on).
 */
export type OnProgress = (view: TrajectoryView, p: LoadProgress) => void | Promise<void>;
export const FIRST_PAGE = 60;
const PROGRESS_MS = 250;
/** …or after this long with at least one step (huge steps). */
const FIRST_PAGE_MS = 150;
/** The longest stretch of synchronous work between two turns of the event loop (queries are answered meanwhile). */
const SLICE_MS = 12;

function emptyView(file: string, ptr: string): TrajectoryView {
  return {
    file, pointer: ptr, schemaVersion: null, unreadable: null, notAtif: null, taskLevel: false,
    agent: { name: null, version: null, model: null, toolDefinitions: 0 }, sessionId: null, trajectoryId: null,
    notes: null, finalMetrics: null, files: [], steps: [], toolCalls: 0, paired: 0, totals: emptyTotals(),
    totalsWithSubagents: emptyTotals(), disagreements: [], subagents: [], elapsedMs: null, problems: [],
  };
}

/**
 * Reads and builds the view of the trajectory in `file` (absolute POSIX path). `keep`, when given, receives what is
 * kept of every file read, by path (the editor answers "raw JSON of step N" and the per-token view from it).
 * `onProgress` sees the view while the trajectory's own steps are read.
 */
export async function loadTrajectory(fs: TrajectoryFs, file: string, limits: Partial<LoadLimits> = {}, keep?: Map<string, KeptDoc>, onProgress?: OnProgress): Promise<TrajectoryView> {
  const budget: Budget = { files: 0, limits: { ...DEFAULT_LIMITS, ...limits }, visiting: new Set(), keep, root: path.posix.dirname(file) };
  const taskLevel = isTaskLevel(fs, file);
  const view = emptyView(file, '');
  view.taskLevel = await taskLevel;
  await streamFile(fs, view, budget, onProgress);
  view.taskLevel = await taskLevel;
  return view;
}

async function loadFile(fs: TrajectoryFs, file: string, budget: Budget, depth: number): Promise<TrajectoryView> {
  const refused = await refusedOutside(fs, budget, file);
  if (refused) return unreadable(emptyView(file, ''), refused);
  const r = await readJson(fs, file, budget);
  if (!r.ok) return unreadable(emptyView(file, ''), r.message);
  const view = await buildView(fs, r.doc, file, '', budget, depth);
  readWarnings(view, file, r);
  return view;
}

function unreadable(view: TrajectoryView, message: string): TrajectoryView {
  const taskLevel = view.taskLevel;
  Object.assign(view, emptyView(view.file, view.pointer), { taskLevel, unreadable: message });
  view.problems.push({ file: view.file, pointer: '', severity: 'error', message });
  return view;
}

/** A task's seed trajectory: beside the task's instruction.md (or steps/<name>/), never an attempt's agent/ folder. */
export async function isTaskLevel(fs: TrajectoryFs, file: string): Promise<boolean> {
  const dir = path.posix.dirname(file);
  if (path.posix.basename(dir) === 'agent') return false;
  const has = async (p: string) => (await fs.stat(p).catch(() => undefined))?.type === 'file';
  if (await has(path.posix.join(dir, 'instruction.md'))) return true;
  const parent = path.posix.dirname(dir);
  return path.posix.basename(parent) === 'steps' && await has(path.posix.join(path.posix.dirname(parent), 'task.toml'));
}

/** The header fields of a document; its problems go to `problems` when given. False when it is not ATIF and has no steps list. */
function readHeader(view: TrajectoryView, doc: unknown, file: string, ptr: string, problems?: TrajectoryView['problems']): boolean {
  const d = detect(doc);
  if (!d.atif) {
    view.notAtif = d.notAtif;
    problems?.push({ file, pointer: ptr, severity: 'error', message: `not ATIF: ${d.notAtif.looksLike} — ${d.notAtif.detail}` });
    if (!d.stepsLike) return false;
  } else {
    view.schemaVersion = d.version;
    view.notAtif = null;
    if (!d.known) problems?.push({ file, pointer: `${ptr}/schema_version`, severity: 'warning', message: `${d.version} is newer than the versions this viewer knows (ATIF-v1.0 … v1.8); shown as far as it parses` });
  }
  const root = doc as Obj;
  const agent = own(root, 'agent');
  if (isObj(agent)) {
    const defs = own(agent, 'tool_definitions');
    view.agent = { name: str(own(agent, 'name')), version: str(own(agent, 'version')), model: str(own(agent, 'model_name')), toolDefinitions: Array.isArray(defs) ? defs.length : 0 };
  } else problems?.push({ file, pointer: `${ptr}/agent`, severity: 'error', message: 'agent is missing or not an object' });
  view.sessionId = str(own(root, 'session_id'));
  view.trajectoryId = str(own(root, 'trajectory_id'));
  view.notes = str(own(root, 'notes'));
  const fm = own(root, 'final_metrics');
  view.finalMetrics = isObj(fm) ? fm : null;
  return true;
}

/** The joined timeline as it is built: files, steps (copied context folded), subagent refs, embedded trajectories. */
class Timeline {
  readonly refs: SubagentRef[] = [];
  readonly embedded: Embedded = new Map();
  private readonly seen = new Set<string>();
  private tallied = 0;
  private prevT: number | null = null; private firstT: number | null = null; private lastT: number | null = null;

  constructor(readonly view: TrajectoryView) {}

  beginFile(d: Obj | null, f: string, base: string): { tf: TimelineFile; ctx: StepContext } {
    const view = this.view;
    const fm = d ? own(d, 'final_metrics') : undefined;
    const tf: TimelineFile = { path: f, firstStep: view.steps.length, steps: 0, foldedCopies: 0, schemaVersion: d ? str(own(d, 'schema_version')) : null, finalMetrics: isObj(fm) ? fm : null };
    const ctx: StepContext = {
      file: f, fileIndex: view.files.length, base: `${base}/steps`, problems: view.problems, refs: [],
      addRef: (raw) => { this.refs.push({ raw, file: f }); return this.refs.length - 1; },
    };
    view.files.push(tf);
    return { tf, ctx };
  }

  addStep(at: { tf: TimelineFile; ctx: StepContext }, raw: unknown, i: number): void {
    const step = readStep(raw, i, this.view.steps.length, at.ctx);
    const key = `${step.source}\u0000${partsText(step.message)}`;
    if (step.copied && at.ctx.fileIndex > 0 && this.seen.has(key)) { at.tf.foldedCopies++; return; }
    this.seen.add(key);
    this.view.steps.push(step);
    at.tf.steps++;
  }

  /** A whole parsed document's steps and embedded subagents (false: steps is not a list). */
  addFile(d: Obj, f: string, base: string): void {
    const at = this.beginFile(d, f, base);
    const steps = own(d, 'steps');
    if (!Array.isArray(steps)) { this.view.problems.push({ file: f, pointer: `${base}/steps`, severity: 'error', message: 'steps is missing or not a list' }); return; }
    if (steps.length === 0) this.view.problems.push({ file: f, pointer: `${base}/steps`, severity: 'error', message: 'steps is empty (ATIF needs at least one)' });
    steps.forEach((raw, i) => this.addStep(at, raw, i));
    this.collectEmbedded(d, f, base);
  }

  collectEmbedded(d: Obj, f: string, base: string): void {
    const subs = own(d, 'subagent_trajectories');
    if (!Array.isArray(subs)) return;
    subs.forEach((s, i) => {
      const id = isObj(s) ? str(own(s, 'trajectory_id')) : null;
      const p = `${base}/subagent_trajectories${pointer(i)}`;
      if (!isObj(s)) { this.view.problems.push({ file: f, pointer: p, severity: 'error', message: 'embedded subagent trajectory is not an object' }); return; }
      if (!id) this.view.problems.push({ file: f, pointer: `${p}/trajectory_id`, severity: 'warning', message: 'embedded subagent trajectory without trajectory_id (nothing can reference it)' });
      const key = id ?? `#${f}${p}`;
      if (this.embedded.has(key)) this.view.problems.push({ file: f, pointer: `${p}/trajectory_id`, severity: 'warning', message: `trajectory_id ${JSON.stringify(id)} is not unique` });
      else this.embedded.set(key, { doc: s, file: f, ptr: p });
    });
  }

  /** Durations, totals and counts of the steps added since the last call (so a growing view reads right). */
  tally(): void {
    const view = this.view;
    for (; this.tallied < view.steps.length; this.tallied++) {
      const s = view.steps[this.tallied];
      const t = s.timestamp !== null ? Date.parse(s.timestamp) : null;
      if (t !== null && this.prevT !== null) {
        if (t >= this.prevT) s.durationMs = t - this.prevT;
        else view.problems.push({ file: view.files[s.file]?.path ?? view.file, pointer: `${s.pointer}/timestamp`, severity: 'info', message: 'timestamp is earlier than the step before (no duration shown)' });
      }
      this.prevT = t;
      if (t !== null) { if (this.firstT === null) this.firstT = t; this.lastT = t; }
      if (!s.copied) view.totals = addTotals(view.totals, stepTotals(s));
      view.toolCalls += s.toolCalls.length;
      for (const c of s.toolCalls) if (c.results.length) view.paired++;
    }
    view.elapsedMs = this.firstT !== null && this.lastT !== null && this.lastT >= this.firstT ? this.lastT - this.firstT : null;
    view.totalsWithSubagents = view.totals;
  }
}

/** The trajectory's own file, its steps streamed into `view`; then the rest (continuations, subagents, recount). */
async function streamFile(fs: TrajectoryFs, view: TrajectoryView, budget: Budget, onProgress?: OnProgress): Promise<void> {
  const file = view.file;
  if (budget.files >= budget.limits.maxFiles) { unreadable(view, `not read: more than ${budget.limits.maxFiles} files`); return; }
  const o = await openBytes(fs, file, budget.limits.maxBytes);
  if (!o.ok) { unreadable(view, o.message); return; }
  budget.files++;
  const src = o.src;
  const tl = new Timeline(view);
  const top: Obj = {};
  let at: ReturnType<Timeline['beginFile']> | null = null;
  const t0 = performance.now(); let sliceStart = t0; let lastProgress = 0; let pages = 0;
  const spans: Span[] = [];
  const progress = async () => {
    tl.tally();
    await onProgress?.(view, { steps: view.steps.length, bytesRead: src.avail, bytesTotal: src.buf.length });
    lastProgress = sliceStart = performance.now();
  };
  let r: Awaited<ReturnType<typeof streamObject>>;
  try {
    r = await streamObject(src, {
      onKey: (k, v) => { top[k] = v; },
      onStepsStart: () => {
        top.steps = [];
        readHeader(view, top, file, '');
        budget.keep?.set(file, keptStreamed(src, spans, top));
        at = tl.beginFile(top, file, '');
      },
      onStep: async (raw, i, span) => {
        spans.push(span);
        tl.addStep(at!, raw, i);
        const now = performance.now();
        if (pages === 0 ? view.steps.length >= FIRST_PAGE || now - t0 > FIRST_PAGE_MS : now - lastProgress > PROGRESS_MS) { pages++; await progress(); }
        if (now - sliceStart > SLICE_MS) { await new Promise((res) => setImmediate(res)); sliceStart = performance.now(); }
      },
    });
  } catch (e) {
    await o.close();
    // What the scan kept of its steps is of bytes that were not all read.
    budget.keep?.delete(file);
    unreadable(view, `cannot be read: ${(e as Error).message}`);
    return;
  }
  if (!r.ok) {
    // Not an object the scan follows (or not JSON): parse it whole, as every other file is.
    while (!src.eof) await src.more();
    const text = src.buf.toString('utf8', 0, src.avail);
    const whole = parseWhole(text, file, budget);
    // Not JSON (cut off mid-file, say): its text is what the raw view shows, not a parse of it (which throws).
    if (!whole.ok) { budget.keep?.set(file, keptText(text)); unreadable(view, whole.message); return; }
    const taskLevel = view.taskLevel;
    Object.assign(view, await buildView(fs, whole.doc, file, '', budget, 0), { taskLevel });
    readWarnings(view, file, { ...whole, bytes: byteWarnings(src.buf, src.avail) });
    return;
  }
  budget.keep?.set(file, keptStreamed(src, spans, top));
  const headerProblems: TrajectoryView['problems'] = [];
  if (!readHeader(view, top, file, '', headerProblems)) {
    const taskLevel = view.taskLevel;
    Object.assign(view, emptyView(file, ''), { taskLevel, notAtif: view.notAtif, problems: headerProblems });
    return;
  }
  if (at) {
    const f = (at as ReturnType<Timeline['beginFile']>).tf;
    f.schemaVersion = str(own(top, 'schema_version'));
    const fm = own(top, 'final_metrics');
    f.finalMetrics = isObj(fm) ? fm : null;
    if (r.steps?.length === 0) view.problems.push({ file, pointer: '/steps', severity: 'error', message: 'steps is empty (ATIF needs at least one)' });
    tl.collectEmbedded(top, file, '');
  } else {
    tl.addFile(top, file, '');
  }
  view.problems.unshift(...headerProblems);
  readWarnings(view, file, { bytes: byteWarnings(src.buf, src.avail) });
  await finishView(fs, tl, top, '', budget, 0);
}

/** Builds the view of a parsed document (a whole file, or an embedded subagent at `ptr` inside it). */
export async function buildView(fs: TrajectoryFs, doc: unknown, file: string, ptr: string, budget: Budget, depth: number): Promise<TrajectoryView> {
  const view = emptyView(file, ptr);
  if (!readHeader(view, doc, file, ptr, view.problems)) return view;
  const tl = new Timeline(view);
  tl.addFile(doc as Obj, file, ptr);
  await finishView(fs, tl, doc as Obj, ptr, budget, depth);
  return view;
}

/** Continuations, the recount, subagents and final_metrics compared: what follows the trajectory's own steps. */
async function finishView(fs: TrajectoryFs, tl: Timeline, root: Obj, ptr: string, budget: Budget, depth: number): Promise<void> {
  const view = tl.view; const file = view.file;
  let last: Obj = root; let lastFile = file; let lastPtr = ptr;
  const chain = new Set([file]);
  for (let n = 0; n < budget.limits.maxContinuations; n++) {
    const ref = str(own(last, 'continued_trajectory_ref'));
    if (!ref) break;
    const at = `${lastPtr}/continued_trajectory_ref`;
    const next = path.posix.resolve(path.posix.dirname(lastFile), ref);
    if (chain.has(next)) { view.problems.push({ file: lastFile, pointer: at, severity: 'error', message: `continued_trajectory_ref ${JSON.stringify(ref)} loops back to a file already on the timeline` }); break; }
    chain.add(next);
    const refused = await refusedOutside(fs, budget, next);
    if (refused) { view.problems.push({ file: lastFile, pointer: at, severity: 'error', message: `continuation ${JSON.stringify(ref)}: ${refused}` }); break; }
    const r = await readJson(fs, next, budget);
    if (!r.ok) { view.problems.push({ file: lastFile, pointer: at, severity: 'error', message: `continuation ${JSON.stringify(ref)}: ${r.message}` }); break; }
    if (!isObj(r.doc) || !detect(r.doc).atif) { view.problems.push({ file: next, pointer: '', severity: 'error', message: 'continuation is not an ATIF document' }); break; }
    for (const message of [...r.bytes ?? [], ...r.nonFinite ? [r.nonFinite] : []]) view.problems.push({ file: next, pointer: '', severity: 'warning', message });
    tl.addFile(r.doc, next, '');
    last = r.doc; lastFile = next; lastPtr = '';
    if (n === budget.limits.maxContinuations - 1 && str(own(last, 'continued_trajectory_ref'))) {
      view.problems.push({ file: lastFile, pointer: '/continued_trajectory_ref', severity: 'warning', message: `stopped after ${budget.limits.maxContinuations} continuations` });
    }
  }
  tl.tally();
  await resolveSubagents(view, tl.refs, tl.embedded, budget, depth, {
    file: (target) => loadFile(fs, target, budget, depth + 1),
    embedded: (hit) => buildView(fs, hit.doc, hit.file, hit.ptr, budget, depth + 1),
  });
  view.disagreements = disagreements(view);
}
