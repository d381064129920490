// One task of a viewer dataset's summary.json (docs/formats.md#viewer-data) read into a Task: one attempt per (cell,
// attempt), its trace looked up in the listing of traces/ (or stat'ed when elsewhere in the dataset), and the cell's
// rewards kept for the cross-check (viewerCrossCheck.ts). At 10,000 tasks × 8 attempts this runs 80,000 times: what
// is the same for every attempt of a cell (its model, harness, tier; the start of its attempts' ids) is made once
// per cell key, and the strings and arrays an attempt keeps are made flat and of their size (a template's
// concatenation is a chain of cons strings, flattened again when the document is written; an array grown by push
// keeps room for 17).
import * as path from 'node:path';
import type { Attempt, Evidence, Problem, Task } from '../model';
import { isPass } from '../model';
import { problemAt, type JsonDocument } from './jsonFile';
import type { CellRewards } from './viewerCrossCheck';
import type { ViewerProjectInfo } from './viewerProject';
import { isInside, outsideMessage } from '../containment';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Where the traces of a dataset are looked up: the listing of traces/; a trace elsewhere in the dataset is stat'ed
 * (`elsewhere`: its path, undefined until stat'ed).
 */
export interface TraceLookup {
  dir: string;
  names: ReadonlySet<string>;
  /** The dataset folder is a normal absolute path (path.resolve leaves it as it is). */
  normalDir: boolean;
  elsewhere: Map<string, boolean | undefined>;
}

/** What every attempt of one cell key shares. */
interface CellInfo {
  model: string;
  harness: string;
  tierText: string | undefined;
}

/** What the tasks of one dataset share while they are read: the trace lookup and each cell key's parts. */
export interface TaskContext {
  traces: TraceLookup;
  doc: JsonDocument;
  datasetDir: string;
  project: ViewerProjectInfo;
  problems: Problem[];
  cells: CellRewards[];
  cellInfo: Map<string, CellInfo>;
}

/** Attempt labels '#1'…: one string per number. */
const LABELS: string[] = [];
const labelOf = (n: number): string => (n < 256 ? (LABELS[n] ??= flat(`#${n}`)) : flat(`#${n}`));

/** The same text as one flat string (Array.prototype.join makes one; a template's result is a chain of cons strings). */
function flat(...parts: (string | number)[]): string {
  return parts.join('');
}

/** A name of a file directly in traces/: not empty, '.' or '..', no '/'. */
function plainName(trace: string, from: number): boolean {
  if (trace.length === from || trace.indexOf('/', from) >= 0) return false;
  const n = trace.length - from;
  return !(n <= 2 && trace.charCodeAt(from) === 0x2e && (n === 1 || trace.charCodeAt(from + 1) === 0x2e));
}

/**
 * The absolute path of a trace named relative to the dataset: a plain `traces/x.json` (no '.', '..' or empty segment)
 * under a dataset folder that is already normal is joined without path.resolve (80,000 of them in a big dataset);
 * anything else goes through resolve.
 */
function traceAbs(datasetDir: string, normalDir: boolean, trace: string): string {
  return normalDir && trace.charCodeAt(0) !== 0x2f && !/(^|\/)\.{0,2}(\/|$)/.test(trace)
    ? flat(datasetDir, '/', trace) : path.posix.resolve(datasetDir, trace);
}

/**
 * Whether the trace at `abs` (its last '/' at `slash`, its name `label`) is on disk: by the listing of traces/, else
 * as stat'ed. A trace elsewhere not stat'ed yet is noted (and taken as there until the tasks are read again).
 */
function traceOnDisk(traces: TraceLookup, abs: string, slash: number, label: string): boolean {
  if (abs.slice(0, Math.max(slash, 1)) === traces.dir) return traces.names.has(label);
  const known = traces.elsewhere.get(abs);
  if (known !== undefined) return known;
  traces.elsewhere.set(abs, undefined);
  return true;
}

function cellInfoOf(cx: TaskContext, cellKey: string): CellInfo {
  let info = cx.cellInfo.get(cellKey);
  if (!info) {
    const bar = cellKey.indexOf('|');
    const harness = bar < 0 ? '' : cellKey.slice(bar + 1);
    const tier = cx.project.support[harness];
    info = {
      model: bar < 0 ? cellKey : cellKey.slice(0, bar), harness,
      tierText: tier ? (tier.caveats.length ? `${tier.tier}: ${tier.caveats.join('; ')}` : tier.tier) : undefined,
    };
    cx.cellInfo.set(cellKey, info);
  }
  return info;
}

/** Which attempt names a trace: for its problem's JSON path and words (made only when there is a problem). */
interface TraceAt { ti: number; cellKey: string; ai: number; id: string; attemptNo: number }
const tracePath = (at: TraceAt): (string | number)[] => ['tasks', at.ti, 'cells', at.cellKey, 'attempts', at.ai, 'trace'];
const traceOf = (at: TraceAt): string => `trace of ${at.id} ${at.cellKey} attempt ${at.attemptNo}`;

/** A trace's evidence (and its problem, and `missing`, when it is outside the dataset or not on disk). */
function traceEvidence(cx: TaskContext, trace: string, at: TraceAt, missing: string[]): Evidence {
  const { traces, datasetDir } = cx;
  // The common case, `traces/<name>` under a normal dataset folder: inside it and in traces/, by its text.
  if (traces.normalDir && trace.startsWith('traces/') && plainName(trace, 7)) {
    const abs = flat(datasetDir, '/', trace);
    const label = abs.slice(abs.length - trace.length + 7);
    if (traces.names.has(label)) return { kind: 'trace', label, path: abs, isDir: false, present: true };
    missing.push(abs);
    cx.problems.push(problemAt(cx.doc, tracePath(at), 'warning', 'missing-trace', `${trace} (${traceOf(at)}) is not on disk`));
    return { kind: 'trace', label, path: abs, isDir: false, present: false, namedBy: 'summary.json names it' };
  }
  const abs = traceAbs(datasetDir, traces.normalDir, trace);
  const slash = abs.lastIndexOf('/');
  const label = abs.slice(slash + 1);
  if (!isInside(datasetDir, abs)) {
    cx.problems.push(problemAt(cx.doc, tracePath(at), 'warning', 'outside-run', outsideMessage(`the ${traceOf(at)}`, trace, datasetDir)));
    return { kind: 'trace', label, path: abs, isDir: false, present: false, outside: true };
  }
  if (traceOnDisk(traces, abs, slash, label)) return { kind: 'trace', label, path: abs, isDir: false, present: true };
  missing.push(abs);
  cx.problems.push(problemAt(cx.doc, tracePath(at), 'warning', 'missing-trace', `${trace} (${traceOf(at)}) is not on disk`));
  return { kind: 'trace', label, path: abs, isDir: false, present: false, namedBy: 'summary.json names it' };
}

export function readViewerTask(cx: TaskContext, t: Obj, ti: number): Task {
  const id = str(t.id) ?? `task-${ti}`;
  const details: Record<string, string | number | boolean | null> = {};
  for (const k of ['difficulty', 'difficulty_level', 'reward_mode', 'question', 'answer']) {
    const v = t[k];
    if (typeof v === 'string') details[k] = v.length > 500 ? `${v.slice(0, 500)}…` : v;
    else if (typeof v === 'number' || typeof v === 'boolean') details[k] = v;
  }
  const attempts: Attempt[] = [];
  const cellMap = isObj(t.cells) ? t.cells : {};
  for (const [cellKey, cell] of Object.entries(cellMap)) {
    if (!isObj(cell)) continue;
    const { model, harness, tierText } = cellInfoOf(cx, cellKey);
    const list = Array.isArray(cell.attempts) ? cell.attempts : [];
    const rewards: (number | null)[] = new Array(list.length);
    const numbers: number[] = new Array(list.length);
    let kept = 0;
    for (let ai = 0; ai < list.length; ai++) {
      const a: unknown = list[ai];
      if (!isObj(a)) continue;
      const n = num(a.attempt);
      const attemptNo = n !== null && n >= 1 ? Math.floor(n) : ai + 1;
      const reward = num(a.reward);
      rewards[kept] = reward;
      numbers[kept++] = attemptNo;
      const missing: string[] = [];
      const trace = str(a.trace);
      const evidence: Evidence[] = trace ? [traceEvidence(cx, trace, { ti, cellKey, ai, id, attemptNo }, missing)] : [];
      const adetails: Record<string, string | number | boolean | null> = tierText === undefined ? { model, harness } : { model, harness, tier: tierText };
      const outcome = reward === null ? 'infra-error' : isPass(reward) ? 'passed' : 'failed';
      const attemptId = flat(id, '#', cellKey, '#', attemptNo);
      const durationSec = num(a.elapsed_sec);
      const nTurns = num(a.n_turns);
      const label = labelOf(attemptNo);
      // (key order as written: the CLI's --json prints attempts as they are)
      const attempt: Attempt = reward === null
        ? { id: attemptId, index: attemptNo - 1, label, outcome, reward, failure: { reason: 'the verifier never ran' },
          durationSec, nTurns, cell: cellKey, evidence, missing, details: adetails }
        : { id: attemptId, index: attemptNo - 1, label, outcome, reward, durationSec, nTurns, cell: cellKey, evidence, missing, details: adetails };
      const method = str(a.reward_method);
      if (method) attempt.rewardMethod = method;
      attempts.push(attempt);
    }
    rewards.length = kept;
    numbers.length = kept;
    const pa = cell.passed_at;
    cx.cells.push({
      taskIndex: ti, model, harness, rewards, attemptNumbers: numbers, cellKey,
      ...(pa === undefined ? {} : { recordedPassedAt: typeof pa === 'number' ? pa : null }),
    });
  }
  const index = num(t.index);
  return { id, ...(index !== null ? { index } : {}), label: id, attempts, details };
}
