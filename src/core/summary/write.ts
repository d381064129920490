// write_run_summary (rules 1 and 13): builds the document and replaces `<stem>_run_summary.json` atomically through
// FsPort.writeFileAtomic (temp file in the same folder, flush, rename), creating the folder when the run wrote nothing
// there. It NEVER throws: what it could not do comes back as `error` (and Problems) for the caller to log.
//
// Temp files: FsPort.writeFileAtomic names them `.<summary name>.<pid>.<hex>.tmp` (atomicTempPath in fs/port.ts). A writer killed mid-write leaves
// one behind; the next write removes those of writers that are no longer alive (when the FsPort can remove files).
import { type FsPort, atomicTempPattern } from '../fs/port';
import type { Problem } from '../model';
import type { RunSummaryDocument } from '../schemas/runSummary';
import { buildRunSummary, type SummaryOptions } from './build';
import { basename, dirname, joinPath, normalizePath, runSummaryPathFor } from './paths';
import { UnreadableRunFile } from './rows';
import { serializeSummaryBytesAsync } from './serialize';

export interface WriteResult {
  path: string;
  document?: RunSummaryDocument;
  /** The bytes written (what the file holds), with the document. */
  bytes?: Uint8Array;
  problems: Problem[];
  error?: string;
}

export interface WriteOptions extends SummaryOptions {
  /** Whether the writer process `pid` is still running (default: signal 0 on this machine). */
  isWriterAlive?: (pid: number) => boolean;
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

export async function writeRunSummary(fs: FsPort, rolloutsPath: string, opts: WriteOptions = {}): Promise<WriteResult> {
  let path = rolloutsPath;
  const problems: Problem[] = [];
  try {
    path = runSummaryPathFor(normalizePath(rolloutsPath));
    const built = await buildRunSummary(fs, rolloutsPath, opts);
    problems.push(...built.problems);
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('cancelled');
    const bytes = await serializeSummaryBytesAsync(built.document, undefined, opts.signal);
    await fs.mkdirp(dirname(path));
    try {
      for (const p of await cleanStaleTemps(fs, path, opts.isWriterAlive)) {
        problems.push({ file: p, severity: 'info', code: 'stale-temp', message: `a dead writer's temp file is left: ${p}` });
      }
    } catch { /* cleanup is best effort */ }
    await fs.writeFileAtomic(path, bytes);
    return { path, document: built.document, bytes, problems };
  } catch (e) {
    if (e instanceof UnreadableRunFile) {
      // A run file that is there but cannot be read: a summary would call its repeats missing. Nothing is written
      // (an earlier summary stays as it was), and the caller exits non-zero.
      const error = `${e.message}: the summary is not written`;
      problems.push({ file: e.file, severity: 'error', code: 'unreadable', message: error });
      return { path, problems, error };
    }
    const aborted = opts.signal?.aborted;
    const error = aborted ? 'cancelled' : `cannot write ${path}: ${(e as Error)?.message ?? String(e)}`;
    problems.push({ file: path, severity: aborted ? 'info' : 'error', code: aborted ? 'cancelled' : 'write-failed', message: error });
    return { path, problems, error };
  }
}
