// write_run_summary (rules 1 and 13): builds the document and replaces `<stem>_run_summary.json` atomically through
// FsPort.writeFileAtomic (temp file in the same folder, flush, rename), creating the folder when the run wrote nothing
// there. It NEVER throws: what it could not do comes back as `error` (and Problems) for the caller to log.
//
// Temp files: FsPort.writeFileAtomic names them `.<summary name>.<pid>.<hex>.tmp` (atomicTempPath in fs/port.ts). A
// writer killed mid-write leaves one behind; the next write removes those of writers that are no longer alive (when
// the FsPort can remove files).
import { type FsPort, atomicTempPattern } from '../fs/port';
import type { Problem } from '../model';
import type { RunSummaryDocument } from '../schemas/runSummary';
import { buildRunSummary, type SummaryOptions } from './build';
import { basename, dirname, joinPath, normalizePath, runSummaryPathFor, signaturesPathFor } from './paths';
import { UnreadableRunFile } from './rows';
import { outputPaths } from './files';
import { serializeSummaryBytesAsync, serializeSummaryChunks } from './serialize';

export interface WriteResult {
  path: string;
  document?: RunSummaryDocument;
  /** The bytes written (what the file holds), with the document: with WriteOptions.keepBytes (or a port that cannot write chunks). */
  bytes?: Uint8Array;
  problems: Problem[];
  error?: string;
}

export interface WriteOptions extends SummaryOptions {
  /** Whether the writer process `pid` is still running (default: signal 0 on this machine). */
  isWriterAlive?: (pid: number) => boolean;
  /**
   * Hand back the bytes written (WriteResult.bytes). Without it the summary is written in chunks as it is
   * serialized (FsPort.writeFileAtomicChunks, when the port has it), never whole in memory.
   */
  keepBytes?: boolean;
}

function defaultAlive(pid: number): boolean {
  if (typeof process === 'undefined') return true;
  if (pid === process.pid) return true;
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** Removes the temp files dead writers left beside `target` (when the FsPort can remove); returns the ones left. */
export async function cleanStaleTemps(fs: FsPort, target: string, alive: (pid: number) => boolean = defaultAlive): Promise<string[]> {
  const dir = dirname(target);
  const re = atomicTempPattern(target);
  const left: string[] = [];
  for (const [name, type] of await fs.readDir(dir)) {
    const m = re.exec(name);
    if (!m || type !== 'file' || alive(Number(m[1]))) continue;
    const p = joinPath(dir, name);
    if (!fs.remove) { left.push(p); continue; }
    try { await fs.remove(p); } catch { left.push(p); }
  }
  return left;
}

/** A reason the writer must not write, found before reading (item: never replace a good summary after failing to read). */
class Refusal extends Error {}

/**
 * Whether there is a run to summarize at `rollouts`: its run files that exist must be regular, readable files (a
 * folder, a FIFO or an unreadable file is an error, not "a run with no rollouts"), and something of a run must be
 * there — the rollouts, a sidecar (failures, materialized inputs, signatures) or the run config. Nothing is created.
 */
async function preflight(fs: FsPort, rollouts: string): Promise<void> {
  const outs = outputPaths(rollouts);
  const candidates = [outs.rollouts, outs.failures, outs.materialized_inputs, signaturesPathFor(rollouts), joinPath(dirname(rollouts), 'run_config.yaml')];
  let any = false;
  for (const p of candidates) {
    const st = await fs.stat(p);
    if (!st) continue;
    any = true;
    if (p === candidates[4] || p === candidates[3]) continue; // read leniently by the builder
    // (A regular file that cannot be read fails the build as UnreadableRunFile: nothing is written either.)
    if (st.type !== 'file') throw new Refusal(`${p} is ${st.type === 'dir' ? 'a folder' : 'not a regular file (a FIFO, a device or a socket)'}: not read, nothing written`);
  }
  if (!any) {
    throw new Refusal(`no run at ${rollouts}: no rollouts file, no ${basename(outs.failures)} or ${basename(outs.materialized_inputs)}, `
      + 'no run_config.yaml beside it (a typo?); nothing written');
  }
}

/** The run's own rows files the builder could not read (whole-file problems): writing would drop their rows silently. */
function unreadOutputs(rollouts: string, problems: readonly Problem[]): Problem | undefined {
  const outs = new Set(Object.values(outputPaths(rollouts)));
  return problems.find((p) => outs.has(p.file) && p.line === undefined
    && (p.code === 'unreadable' || p.code === 'not-a-file' || p.code === 'too-large'));
}

export async function writeRunSummary(fs: FsPort, rolloutsPath: string, opts: WriteOptions = {}): Promise<WriteResult> {
  let path = rolloutsPath;
  const problems: Problem[] = [];
  try {
    const rollouts = normalizePath(rolloutsPath);
    path = runSummaryPathFor(rollouts);
    await preflight(fs, rollouts);
    const built = await buildRunSummary(fs, rolloutsPath, opts);
    problems.push(...built.problems);
    const unread = unreadOutputs(rollouts, built.problems);
    if (unread) throw new Refusal(`${unread.message}; the summary is left as it was`);
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('cancelled');
    // Only ever beside the rollouts file, in its folder, which exists (preflight): no folder is created.
    if (dirname(path) !== dirname(rollouts)) throw new Refusal(`${path} is not in the folder of ${rollouts}`);
    const streamed = !opts.keepBytes && !!fs.writeFileAtomicChunks;
    const bytes = streamed ? undefined : await serializeSummaryBytesAsync(built.document, undefined, opts.signal);
    try {
      for (const p of await cleanStaleTemps(fs, path, opts.isWriterAlive)) {
        problems.push({ file: p, severity: 'info', code: 'stale-temp', message: `a dead writer's temp file is left: ${p}` });
      }
    } catch { /* cleanup is best effort */ }
    if (bytes) await fs.writeFileAtomic(path, bytes);
    else await fs.writeFileAtomicChunks!(path, serializeSummaryChunks(built.document, undefined, opts.signal));
    return { path, document: built.document, ...(bytes ? { bytes } : {}), problems };
  } catch (e) {
    if (e instanceof UnreadableRunFile) {
      // A run file that is there but cannot be read: a summary would call its repeats missing. Nothing is written
      // (an earlier summary stays as it was), and the caller exits non-zero.
      const error = `${e.message}: the summary is not written`;
      problems.push({ file: e.file, severity: 'error', code: 'unreadable', message: error });
      return { path, problems, error };
    }
    const aborted = opts.signal?.aborted;
    const refused = e instanceof Refusal;
    const error = aborted ? 'cancelled' : refused ? `not written: ${e.message}` : `cannot write ${path}: ${(e as Error)?.message ?? String(e)}`;
    problems.push({ file: path, severity: aborted ? 'info' : 'error', code: aborted ? 'cancelled' : refused ? 'write-refused' : 'write-failed', message: error });
    return { path, problems, error };
  }
}
