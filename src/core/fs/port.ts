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

export interface SequentialReader {
  /** Fills `into` from the current position; the number of bytes read, 0 at the end of the file. */
  read(into: Uint8Array): Promise<number>;
  close(): Promise<void>;
}

/** A file read in a batch: its text (UTF-8), or why not. */
export type FileRead =
  | { text: string; missing?: undefined; tooBig?: undefined; error?: undefined }
  | { missing: true; text?: undefined; tooBig?: undefined; error?: undefined }
  /** Larger than the cap asked for: its size in bytes, nothing read. */
  | { tooBig: number; text?: undefined; missing?: undefined; error?: undefined }
  | { error: string; text?: undefined; missing?: undefined; tooBig?: undefined };

export interface FsPort {
  /** undefined when nothing is there (never throws for a missing path). */
  stat(path: string): Promise<FileStat | undefined>;
  readFile(path: string): Promise<Uint8Array>;
  /** Entries of a folder as [name, type]; [] when it is not a folder. */
  readDir(path: string): Promise<[string, EntryType][]>;
  /**
   * The file's bytes in chunks, in order, in constant memory where the backend allows it.
   * A chunk stays valid after the next one is requested (readers may keep one chunk while reading ahead).
   */
  readChunks(path: string, chunkSize?: number): AsyncIterable<Uint8Array>;
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
  /** Removes a file (no error when it is already gone). Optional: the summary writer uses it to clean dead writers' temp files. */
  remove?(path: string): Promise<void>;
  /** The path with its folders' symlinks resolved and its own name kept; the path itself when it cannot be resolved. */
  realpathDirs(path: string): Promise<string>;
}
