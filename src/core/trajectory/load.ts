// Builds the TrajectoryView of a trajectory file: reads it (bounded), joins its continuations
// (continued_trajectory_ref → trajectory.cont-N.json), folds copied-context steps that repeat earlier ones, resolves
// subagent references (by path, by embedded trajectory_id, v1.6 session-only refs accepted but not resolvable),
// recounts the totals and compares them with final_metrics. Never throws on bad data: what does not parse becomes
// a Problem with its file and JSON pointer. Every loop is bounded (files, depth, bytes).
import * as path from 'node:path';
import type { FsPort } from '../fs/port';
import type { SubagentView, TimelineFile, TrajectoryView } from './types';
import { isObj, num, own, pointer, str, type Obj } from './json';
import { detect } from './detect';
import { partsText, readStep, type RawSubagentRef, type StepContext } from './steps';
import { addTotals, disagreements, emptyTotals, stepTotals } from './recount';

export type TrajectoryFs = Pick<FsPort, 'stat' | 'readFile'>;

export interface LoadLimits {
  /** Largest file read (bytes). */
  maxBytes: number;
  /** Continuation files followed per trajectory. */
  maxContinuations: number;
  /** Nesting of subagents resolved with their own view. */
  maxDepth: number;
  /** Files read in all (main, continuations, subagents). */
  maxFiles: number;
}

export const DEFAULT_LIMITS: LoadLimits = { maxBytes: 512 * 1024 * 1024, maxContinuations: 200, maxDepth: 4, maxFiles: 500 };

interface Budget { files: number; limits: LoadLimits; visiting: Set<string>; keep?: Map<string, unknown> }

type Read = { ok: true; doc: unknown; bytes: number } | { ok: false; message: string };

async function readJson(fs: TrajectoryFs, file: string, budget: Budget): Promise<Read> {
  if (budget.files >= budget.limits.maxFiles) return { ok: false, message: `not read: more than ${budget.limits.maxFiles} files` };
  const st = await fs.stat(file).catch(() => undefined);
  if (!st) return { ok: false, message: 'no such file' };
  if (st.type !== 'file') return { ok: false, message: 'not a file' };
  if (st.size > budget.limits.maxBytes) return { ok: false, message: `too large (${st.size} bytes; the limit is ${budget.limits.maxBytes})` };
  budget.files++;
  let bytes: Uint8Array;
  try { bytes = await fs.readFile(file); } catch (e) { return { ok: false, message: `cannot be read: ${(e as Error).message}` }; }
  let text: string;
  try { text = new TextDecoder('utf-8', { fatal: false }).decode(bytes); } catch (e) { return { ok: false, message: `not text: ${(e as Error).message}` }; }
  try {
    const doc: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    budget.keep?.set(file, doc);
    return { ok: true, doc, bytes: bytes.length };
  } catch (e) {
    return { ok: false, message: `not valid JSON: ${(e as Error).message}` };
  }
}

function emptyView(file: string, ptr: string): TrajectoryView {
  return {
    file, pointer: ptr, schemaVersion: null, unreadable: null, notAtif: null, taskLevel: false,
    agent: { name: null, version: null, model: null, toolDefinitions: 0 }, sessionId: null, trajectoryId: null,
    notes: null, finalMetrics: null, files: [], steps: [], toolCalls: 0, paired: 0, totals: emptyTotals(),
    totalsWithSubagents: emptyTotals(), disagreements: [], subagents: [], elapsedMs: null, problems: [],
  };
}

/**
 * Reads and builds the view of the trajectory in `file` (absolute POSIX path). `keep`, when given, receives every
 * parsed document by path (the editor answers "raw JSON of step N" and the per-token view from it).
 */
export async function loadTrajectory(fs: TrajectoryFs, file: string, limits: Partial<LoadLimits> = {}, keep?: Map<string, unknown>): Promise<TrajectoryView> {
  const budget: Budget = { files: 0, limits: { ...DEFAULT_LIMITS, ...limits }, visiting: new Set(), keep };
  const view = await loadFile(fs, file, budget, 0);
  view.taskLevel = await isTaskLevel(fs, file);
  return view;
}

async function loadFile(fs: TrajectoryFs, file: string, budget: Budget, depth: number): Promise<TrajectoryView> {
  const r = await readJson(fs, file, budget);
  if (!r.ok) {
    const v = emptyView(file, '');
    v.unreadable = r.message;
    v.problems.push({ file, pointer: '', severity: 'error', message: r.message });
    return v;
  }
  return buildView(fs, r.doc, file, '', budget, depth);
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

/** Builds the view of a parsed document (a whole file, or an embedded subagent at `ptr` inside it). */
export async function buildView(fs: TrajectoryFs, doc: unknown, file: string, ptr: string, budget: Budget, depth: number): Promise<TrajectoryView> {
  const view = emptyView(file, ptr);
  const d = detect(doc);
  if (!d.atif) {
    view.notAtif = d.notAtif;
    view.problems.push({ file, pointer: ptr, severity: 'error', message: `not ATIF: ${d.notAtif.looksLike} — ${d.notAtif.detail}` });
    if (!d.stepsLike) return view;
  } else {
    view.schemaVersion = d.version;
    if (!d.known) view.problems.push({ file, pointer: `${ptr}/schema_version`, severity: 'warning', message: `${d.version} is newer than the versions this viewer knows (ATIF-v1.0 … v1.8); shown as far as it parses` });
  }
  const root = doc as Obj;
  const agent = own(root, 'agent');
  if (isObj(agent)) {
    const defs = own(agent, 'tool_definitions');
    view.agent = { name: str(own(agent, 'name')), version: str(own(agent, 'version')), model: str(own(agent, 'model_name')), toolDefinitions: Array.isArray(defs) ? defs.length : 0 };
  } else view.problems.push({ file, pointer: `${ptr}/agent`, severity: 'error', message: 'agent is missing or not an object' });
  view.sessionId = str(own(root, 'session_id'));
  view.trajectoryId = str(own(root, 'trajectory_id'));
  view.notes = str(own(root, 'notes'));
  const fm = own(root, 'final_metrics');
  view.finalMetrics = isObj(fm) ? fm : null;

  const refs: { raw: RawSubagentRef; file: string }[] = [];
  const embedded = new Map<string, { doc: Obj; file: string; ptr: string }>();
  const collectEmbedded = (d: Obj, f: string, base: string) => {
    const subs = own(d, 'subagent_trajectories');
    if (!Array.isArray(subs)) return;
    subs.forEach((s, i) => {
      const id = isObj(s) ? str(own(s, 'trajectory_id')) : null;
      const p = `${base}/subagent_trajectories${pointer(i)}`;
      if (!isObj(s)) { view.problems.push({ file: f, pointer: p, severity: 'error', message: 'embedded subagent trajectory is not an object' }); return; }
      if (!id) view.problems.push({ file: f, pointer: `${p}/trajectory_id`, severity: 'warning', message: 'embedded subagent trajectory without trajectory_id (nothing can reference it)' });
      const key = id ?? `#${f}${p}`;
      if (embedded.has(key)) view.problems.push({ file: f, pointer: `${p}/trajectory_id`, severity: 'warning', message: `trajectory_id ${JSON.stringify(id)} is not unique` });
      else embedded.set(key, { doc: s, file: f, ptr: p });
    });
  };

  // The timeline: this document's steps, then each continuation's.
  const seen = new Set<string>();
  const addFile = (d: Obj, f: string, base: string, fileIndex: number): TimelineFile => {
    const tf: TimelineFile = { path: f, firstStep: view.steps.length, steps: 0, foldedCopies: 0, schemaVersion: str(own(d, 'schema_version')), finalMetrics: isObj(own(d, 'final_metrics')) ? own(d, 'final_metrics') as Obj : null };
    const ctx: StepContext = {
      file: f, fileIndex, base: `${base}/steps`, problems: view.problems, refs: [],
      addRef: (raw) => { refs.push({ raw, file: f }); return refs.length - 1; },
    };
    const steps = own(d, 'steps');
    if (!Array.isArray(steps)) { view.problems.push({ file: f, pointer: `${base}/steps`, severity: 'error', message: 'steps is missing or not a list' }); return tf; }
    if (steps.length === 0) view.problems.push({ file: f, pointer: `${base}/steps`, severity: 'error', message: 'steps is empty (ATIF needs at least one)' });
    steps.forEach((raw, i) => {
      const step = readStep(raw, i, view.steps.length, ctx);
      const key = `${step.source}\u0000${partsText(step.message)}`;
      if (step.copied && fileIndex > 0 && seen.has(key)) { tf.foldedCopies++; return; }
      seen.add(key);
      view.steps.push(step);
      tf.steps++;
    });
    collectEmbedded(d, f, base);
    return tf;
  };
  view.files.push(addFile(root, file, ptr, 0));

  let last: Obj = root; let lastFile = file; let lastPtr = ptr;
  const chain = new Set([file]);
  for (let n = 0; n < budget.limits.maxContinuations; n++) {
    const ref = str(own(last, 'continued_trajectory_ref'));
    if (!ref) break;
    const at = `${lastPtr}/continued_trajectory_ref`;
    const next = path.posix.resolve(path.posix.dirname(lastFile), ref);
    if (chain.has(next)) { view.problems.push({ file: lastFile, pointer: at, severity: 'error', message: `continued_trajectory_ref ${JSON.stringify(ref)} loops back to a file already on the timeline` }); break; }
    chain.add(next);
    const r = await readJson(fs, next, budget);
    if (!r.ok) { view.problems.push({ file: lastFile, pointer: at, severity: 'error', message: `continuation ${JSON.stringify(ref)}: ${r.message}` }); break; }
    if (!isObj(r.doc) || !detect(r.doc).atif) { view.problems.push({ file: next, pointer: '', severity: 'error', message: 'continuation is not an ATIF document' }); break; }
    view.files.push(addFile(r.doc, next, '', view.files.length));
    last = r.doc; lastFile = next; lastPtr = '';
    if (n === budget.limits.maxContinuations - 1 && str(own(last, 'continued_trajectory_ref'))) {
      view.problems.push({ file: lastFile, pointer: '/continued_trajectory_ref', severity: 'warning', message: `stopped after ${budget.limits.maxContinuations} continuations` });
    }
  }

  finishTimeline(view);
  await resolveSubagents(fs, view, refs, embedded, budget, depth);
  view.disagreements = disagreements(view);
  return view;
}

function finishTimeline(view: TrajectoryView): void {
  let prev: number | null = null; let first: number | null = null; let lastT: number | null = null;
  for (const s of view.steps) {
    const t = s.timestamp !== null ? Date.parse(s.timestamp) : null;
    if (t !== null && prev !== null) {
      if (t >= prev) s.durationMs = t - prev;
      else view.problems.push({ file: view.files[s.file]?.path ?? view.file, pointer: `${s.pointer}/timestamp`, severity: 'info', message: 'timestamp is earlier than the step before (no duration shown)' });
    }
    prev = t;
    if (t !== null) { if (first === null) first = t; lastT = t; }
    if (!s.copied) view.totals = addTotals(view.totals, stepTotals(s));
    view.toolCalls += s.toolCalls.length;
    for (const c of s.toolCalls) if (c.results.length) view.paired++;
  }
  view.elapsedMs = first !== null && lastT !== null && lastT >= first ? lastT - first : null;
}

async function resolveSubagents(fs: TrajectoryFs, view: TrajectoryView, refs: { raw: RawSubagentRef; file: string }[],
  embedded: Map<string, { doc: Obj; file: string; ptr: string }>, budget: Budget, depth: number): Promise<void> {
  const used = new Set<string>();
  const counted = new Set<string>();
  let withSubs = view.totals;
  const finish = (sv: SubagentView, key: string | null) => {
    if (sv.view) { sv.agent = sv.view.agent.name; sv.steps = sv.view.steps.length; sv.totals = sv.view.totalsWithSubagents; }
    if (sv.view && key && !counted.has(key)) { counted.add(key); withSubs = addTotals(withSubs, sv.totals); }
    view.subagents.push(sv);
  };
  const blank = (kind: SubagentView['kind'], ref: string, step: number | null): SubagentView =>
    ({ kind, ref, path: null, step, unresolved: null, agent: null, steps: 0, totals: emptyTotals(), view: null });
  for (const { raw, file } of refs) {
    if (raw.trajectoryPath) {
      const sv = blank('path', raw.trajectoryPath, raw.step);
      const target = path.posix.resolve(path.posix.dirname(file), raw.trajectoryPath);
      if (budget.visiting.has(target) || target === view.file) { sv.unresolved = 'refers back to a trajectory that contains it'; }
      else if (depth >= budget.limits.maxDepth) { sv.path = target; sv.unresolved = `not opened: nested deeper than ${budget.limits.maxDepth}`; }
      else {
        budget.visiting.add(view.file);
        const sub = await loadFile(fs, target, budget, depth + 1);
        budget.visiting.delete(view.file);
        if (sub.unreadable) sv.unresolved = sub.unreadable;
        else { sv.path = target; sv.view = sub; }
      }
      if (sv.unresolved) view.problems.push({ file, pointer: `${raw.pointer}/trajectory_path`, severity: 'warning', message: `subagent ${JSON.stringify(raw.trajectoryPath)}: ${sv.unresolved}` });
      finish(sv, target);
    } else if (raw.trajectoryId) {
      const sv = blank('id', raw.trajectoryId, raw.step);
      const hit = embedded.get(raw.trajectoryId);
      if (!hit) {
        sv.unresolved = 'no embedded subagent_trajectories entry has this trajectory_id';
        view.problems.push({ file, pointer: `${raw.pointer}/trajectory_id`, severity: 'warning', message: `subagent ${JSON.stringify(raw.trajectoryId)}: ${sv.unresolved}` });
      } else {
        used.add(raw.trajectoryId);
        sv.path = `${hit.file}#${hit.ptr}`;
        if (depth < budget.limits.maxDepth) sv.view = await buildView(fs, hit.doc, hit.file, hit.ptr, budget, depth + 1);
        else sv.unresolved = `not opened: nested deeper than ${budget.limits.maxDepth}`;
      }
      finish(sv, sv.path);
    } else {
      const sv = blank('session', raw.sessionId ?? '', raw.step);
      sv.unresolved = 'a v1.6 reference by session_id only: session ids name a run, not a document, so it cannot be opened';
      view.problems.push({ file, pointer: raw.pointer, severity: 'info', message: sv.unresolved });
      finish(sv, null);
    }
  }
  for (const [key, hit] of embedded) {
    if (used.has(key)) continue;
    const sv = blank('embedded', str(own(hit.doc, 'trajectory_id')) ?? '', null);
    sv.path = `${hit.file}#${hit.ptr}`;
    if (depth < budget.limits.maxDepth) sv.view = await buildView(fs, hit.doc, hit.file, hit.ptr, budget, depth + 1);
    finish(sv, sv.path);
  }
  view.totalsWithSubagents = withSubs;
}
