// The files of one trajectory read within its budget (load.ts): the limits on bytes, files, continuations and depth;
// a continuation or subagent file refused when it lies outside the opened trajectory's folder; a whole file read and
// parsed (Python's NaN / Infinity read as no value, a byte order mark and bytes that are not UTF-8 said), and the
// warnings of such a read put first in a view's problems.
import type { TrajectoryView } from './types';
import { keptParsed, openBytes, type KeptDoc, type TrajectoryFs } from './read';
import { isInside } from '../containment';
import { describeWords, NON_FINITE_WHY, parseAllowingPythonFloats } from '../pythonFloats';
import { byteWarnings, notJsonMessage } from './honest';

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

/** `root`: the folder of the trajectory opened; its continuations and subagent files are read only from inside it. */
export interface Budget { files: number; limits: LoadLimits; visiting: Set<string>; keep?: Map<string, KeptDoc>; root: string }

/**
 * Why `file` (a continuation or a subagent file the trajectory names) is not read, or null: it must lie inside the
 * opened trajectory's folder, by its text (`../x.json`, an absolute path elsewhere) and, where the file system resolves
 * links, by its real path (a `trajectory.cont-1.json -> /elsewhere` link), as the trajectory's media must
 * (docs/untrusted-runs.md#media-in-trajectories). Nothing of a refused file is read or quoted.
 */
export async function refusedOutside(fs: TrajectoryFs, budget: Budget, file: string): Promise<string | null> {
  const why = `outside the trajectory's folder ${budget.root}: not read`;
  if (!isInside(budget.root, file)) return `${file} is ${why}`;
  if (!fs.realpath) return null;
  const [realRoot, real] = await Promise.all([fs.realpath(budget.root).catch(() => undefined), fs.realpath(file).catch(() => undefined)]);
  if (real !== undefined && !isInside(realRoot ?? budget.root, real)) return `${file} is a link to ${real}, ${why}`;
  return null;
}

/**
 * `nonFinite`: the warning when Python's NaN / Infinity words were read as no value (src/core/pythonFloats.ts);
 * `bytes`: warnings about the file's bytes (honest.ts: a byte order mark, bytes that are not UTF-8).
 */
export type Read = { ok: true; doc: unknown; nonFinite?: string; bytes?: string[] } | { ok: false; message: string };

/** A whole file as a parsed document (continuations, subagent files, and the fallback of a file the scan refuses). */
export async function readJson(fs: TrajectoryFs, file: string, budget: Budget): Promise<Read> {
  if (budget.files >= budget.limits.maxFiles) return { ok: false, message: `not read: more than ${budget.limits.maxFiles} files` };
  const o = await openBytes(fs, file, budget.limits.maxBytes);
  if (!o.ok) return o;
  budget.files++;
  const src = o.src;
  try {
    while (!src.eof) await src.more();
  } catch (e) { await o.close(); return { ok: false, message: `cannot be read: ${(e as Error).message}` }; }
  const read = parseWhole(src.buf.toString('utf8', 0, src.avail), file, budget);
  if (read.ok) read.bytes = byteWarnings(src.buf, src.avail);
  return read;
}

/** The warnings of a file read (a Read's `nonFinite` and `bytes`), first in `view`'s problems. */
export function readWarnings(view: TrajectoryView, file: string, r: { nonFinite?: string; bytes?: string[] }): void {
  const ws = [...r.bytes ?? [], ...r.nonFinite ? [r.nonFinite] : []];
  view.problems.unshift(...ws.map((message) => ({ file, pointer: '', severity: 'warning' as const, message })));
}

export function parseWhole(text: string, file: string, budget: Budget): Read {
  try {
    const own = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const { value: doc, words } = parseAllowingPythonFloats(own);
    budget.keep?.set(file, keptParsed(doc));
    return words.length ? { ok: true, doc, nonFinite: `${describeWords(own, words)}: ${NON_FINITE_WHY}` } : { ok: true, doc };
  } catch (e) {
    return { ok: false, message: notJsonMessage(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, e) };
  }
}
