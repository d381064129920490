// One interface for every file access of the core: a Node implementation (CLI, unit tests, benchmarks)
// and a `vscode.workspace.fs` one (src/vscode/vscodeFs.ts) so the extension works over Remote-SSH and in code-server.
// Paths are absolute POSIX strings.

export type EntryType = 'file' | 'dir' | 'other';

// ---------------------------------------------------------------- temp files of atomic writes
// writeFileAtomic writes `.<name>.<pid>.<hex>.tmp` beside the target, then renames it over the target. Every FsPort
// names them so: the summary writer removes those of dead writers (by pid), watchers ignore them.

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The temp file an atomic write of `target` by process `pid` uses (`hex`: a random tag). */
export function atomicTempPath(target: string, pid: number, hex: string): string {
  const slash = target.lastIndexOf('/');
  return `${target.slice(0, slash + 1)}.${target.slice(slash + 1)}.${pid}.${hex}.tmp`;
}

/** Matches the names of `target`'s temp files in its folder; group 1 is the writer's pid. */
export function atomicTempPattern(target: string): RegExp {
  return new RegExp(`^\\.${escapeRe(target.slice(target.lastIndexOf('/') + 1))}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
}

/** Whether a path is the temp file of some atomic write. */
export function isAtomicTempPath(p: string): boolean {
  return /(^|\/)\.[^/]+\.\d+\.[0-9a-f]+\.tmp$/.test(p);
}

export interface FileStat {
  type: EntryType;
  size: number;
  /** Modification time, milliseconds since the epoch. */
  mtimeMs: number;
}

/**
 * What a whole-file read takes at most by default (FsPort.readFile): a run's JSON documents are read whole, and a file
 * the data names may be anything. Streamed reads (readChunks, openSequential) have no size bound (constant memory),
 * but the JSONL line reader holds one line at a time and caps a line at the same number. `harborRuns.maxFileSizeMB`
 * raises it in VS Code; `HARBOR_RUNS_MAX_FILE_MB` for the CLI.
 */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

export type ReadRefusal = 'not-a-file' | 'too-large';

/**
 * A read the port refused without reading: the path is a FIFO, a device, a socket or a folder (reading could hang or
 * never end), or the file is bigger than the limit. `code` is the Problem code readers report it under.
 */
export class ReadRefusedError extends Error {
  constructor(readonly path: string, readonly code: ReadRefusal, readonly detail: string) {
    super(`${path} ${detail} (not read)`);
    this.name = 'ReadRefusedError';
  }
}

export function isReadRefused(e: unknown): e is ReadRefusedError {
  return e instanceof Error && (e as { name?: string }).name === 'ReadRefusedError';
}

/** 'a FIFO', 'a character device', … for the refusal message. */
export function notAFileDetail(kind: string): string {
  return `is ${kind}, not a regular file`;
}

export function tooLargeDetail(size: number, max: number): string {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 3 : 0)} MB`;
  return `is ${mb(size)}, over the ${mb(max)} read limit (harborRuns.maxFileSizeMB)`;
}

export interface SequentialReader {
  /** Fills `into` from the current position; the number of bytes read, 0 at the end of the file. */
  read(into: Uint8Array): Promise<number>;
  close(): Promise<void>;
}

/** A file read in a batch: its text (UTF-8), or why not. */
export type FileRead =
  /** `badUtf8Line`: the first line holding bytes that are not UTF-8 (they read as U+FFFD). */
  | { text: string; badUtf8Line?: number; missing?: undefined; tooBig?: undefined; error?: undefined }
  | { missing: true; text?: undefined; tooBig?: undefined; error?: undefined }
  /** Larger than the cap asked for: its size in bytes, nothing read. */
  | { tooBig: number; text?: undefined; missing?: undefined; error?: undefined }
  | { error: string; text?: undefined; missing?: undefined; tooBig?: undefined };

export interface FsPort {
  /** undefined when nothing is there (never throws for a missing path). */
  stat(path: string): Promise<FileStat | undefined>;
  /**
   * The whole file. Throws ReadRefusedError, without opening it for reading in a way that could block, when the path
   * is not a regular file (FIFO, device, socket, folder) or holds more than `maxBytes` (default: the port's limit).
   */
  readFile(path: string, opts?: { maxBytes?: number }): Promise<Uint8Array>;
  /** The limit readFile applies by default; also a JSONL line's limit. */
  readonly maxFileBytes?: number;
  /**
   * Optional: true when the paths are this machine's files, read by Node with the same bounds from any thread (NodeFs,
   * and VS Code's port for `file:` folders): a worker thread may then read one itself instead of being handed its text.
   */
  readonly nodeLocal?: boolean;
  /** Entries of a folder as [name, type]; [] when it is not a folder. */
  readDir(path: string): Promise<[string, EntryType][]>;
  /**
   * Optional: the names in one folder (its entries of any type), [] when it is not a folder. Off the caller's thread
   * where the backend can, the names sent back as one text: a folder of 75,000 files then costs the caller a split,
   * not 75,000 entries made in one callback (readDir: ~100 ms of one turn).
   */
  listNames?(path: string): Promise<string[]>;
  /**
   * The file's bytes in chunks, in order, in constant memory where the backend allows it.
   * A chunk stays valid after the next one is requested (readers may keep one chunk while reading ahead).
   * Throws ReadRefusedError for a path that is not a regular file. `start`: the byte to begin at (default 0; an
   * append-only file read again from where the last read ended).
   */
  readChunks(path: string, chunkSize?: number, start?: number): AsyncIterable<Uint8Array>;
  /**
   * Optional: the file opened for sequential reads into the caller's own buffers (no allocation per chunk: a
   * 1 GB rollouts file read in 4 MiB chunks otherwise costs 250 fresh buffers and their page faults and GC).
   */
  openSequential?(path: string): Promise<SequentialReader>;
  /**
   * Optional: many folders listed at once, off the caller's thread where the backend can (the summary writer lists
   * one verifier folder per row). Per folder its entries, or undefined when no folder is there.
   */
  listDirs?(paths: readonly string[]): Promise<([string, EntryType][] | undefined)[]>;
  /**
   * Optional: for each item, the first of its candidate paths that is a folder, and which of `names` (name and
   * type) it holds, as one number: -1 when no candidate is a folder, else `(candidate index << 16) | bits`, bit k
   * set when `names[k]` is there (at most 16 names). Off the caller's thread where the backend can (the summary
   * writer asks for 40k verifier folders, each where the row names it or where a moved results folder put it).
   */
  probeDirs?(candidates: readonly (readonly string[])[], names: readonly (readonly [string, EntryType])[]): Promise<Int32Array>;
  /**
   * Optional: many folders listed and many small files read at once, off the caller's thread where the backend can
   * (the readers read one result.json and list a few folders per trial). Each file is read only when it is at most
   * its `maxBytes`. Listings as listDirs answers them; `stats` as stat answers. Use core/fs/gather.ts, which falls
   * back to the calls above.
   */
  gather?(lists: readonly string[], reads: readonly { path: string; maxBytes: number }[], stats?: readonly string[]): Promise<{
    lists: ([string, EntryType][] | undefined)[];
    reads: FileRead[];
    stats: (FileStat | undefined)[];
  }>;
  /** Creates the folder and its parents. */
  mkdirp(path: string): Promise<void>;
  /**
   * Replaces `path` atomically: writes a temp file in the same folder, flushes it, renames it over `path`.
   * A reader sees the old or the new complete file, never half of one; the temp file is removed on failure.
   */
  writeFileAtomic(path: string, data: Uint8Array): Promise<void>;
  /**
   * writeFileAtomic of bytes that come in chunks, each written before the next is asked for (the producer may reuse
   * one buffer): a large file is written without ever being whole in memory. Optional (the writer builds the bytes
   * and calls writeFileAtomic without it).
   */
  writeFileAtomicChunks?(path: string, chunks: AsyncIterable<Uint8Array>): Promise<void>;
  /** Removes a file (no error when it is already gone); absent on a read-only port (an untrusted workspace). Optional: the summary writer uses it to clean dead writers' temp files. */
  remove?(path: string): Promise<void>;
  /** The path with its folders' symlinks resolved and its own name kept; the path itself when it cannot be resolved. */
  realpathDirs(path: string): Promise<string>;
  /**
   * Optional: the path with every link resolved (its own name too), undefined when nothing is there. Absent where the
   * file system cannot resolve links: discovery and the host then contain paths by their text only, and say so.
   */
  realpath?(path: string): Promise<string | undefined>;
}
