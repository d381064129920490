// The Node implementation of FsPort (CLI, unit tests, benchmarks).
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sharedDirLister } from './dirLister';
import { gatherWithCalls } from './gather';
import {
  DEFAULT_MAX_FILE_BYTES, notAFileDetail, ReadRefusedError, tooLargeDetail,
  type EntryType, type FileRead, type FileStat, type FsPort, type SequentialReader, atomicTempPath,
} from './port';

function typeOf(s: fs.Stats | fs.Dirent): EntryType {
  return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
}

function kindOf(s: fs.Stats): string {
  return s.isFIFO() ? 'a FIFO' : s.isCharacterDevice() ? 'a character device' : s.isBlockDevice() ? 'a block device'
    : s.isSocket() ? 'a socket' : s.isDirectory() ? 'a folder' : 'not a regular file';
}

/**
 * Opens for reading without blocking (O_NONBLOCK: opening a FIFO with no writer would wait forever) and checks the
 * opened file's own type (fstat: no race with a swap after a stat), so a FIFO, a device or a socket is never read.
 */
async function openRegular(p: string): Promise<{ handle: fsp.FileHandle; size: number }> {
  const handle = await fsp.open(p, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new ReadRefusedError(p, 'not-a-file', notAFileDetail(kindOf(st)));
    return { handle, size: st.size };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/** HARBOR_RUNS_MAX_FILE_MB (the CLI's counterpart of the harborRuns.maxFileSizeMB setting), when set to a positive number. */
export function maxFileBytesFromEnv(): number | undefined {
  const mb = Number(process.env.HARBOR_RUNS_MAX_FILE_MB);
  return Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : undefined;
}

export interface NodeFsOptions {
  /** readFile's default limit (DEFAULT_MAX_FILE_BYTES). */
  maxFileBytes?: number;
}

export class NodeFs implements FsPort {
  readonly maxFileBytes: number;
  readonly nodeLocal = true;

  constructor(opts: NodeFsOptions = {}) {
    this.maxFileBytes = opts.maxFileBytes ?? maxFileBytesFromEnv() ?? DEFAULT_MAX_FILE_BYTES;
  }

  async stat(p: string): Promise<FileStat | undefined> {
    try {
      const s = await fsp.stat(p);
      return { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs };
    } catch {
      return undefined;
    }
  }

  async readFile(p: string, opts: { maxBytes?: number } = {}): Promise<Uint8Array> {
    const max = opts.maxBytes ?? this.maxFileBytes;
    const { handle, size } = await openRegular(p);
    try {
      if (size > max) throw new ReadRefusedError(p, 'too-large', tooLargeDetail(size, max));
      // Read to the end, never past max + 1 bytes (a file growing while it is read is bounded too). One byte more than
      // its size: the read that finds the end needs no bigger buffer (a 40 MB file no longer costs an 80 MB one).
      let buf = Buffer.allocUnsafe(Math.min(max + 1, Math.max(size + 1, 4096)));
      let n = 0;
      for (;;) {
        if (n === buf.length) {
          if (n > max) break;
          const bigger = Buffer.allocUnsafe(Math.min(max + 1, buf.length * 2));
          buf.copy(bigger, 0, 0, n);
          buf = bigger;
        }
        const { bytesRead } = await handle.read(buf, n, buf.length - n, null);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      if (n > max) throw new ReadRefusedError(p, 'too-large', tooLargeDetail(n, max));
      return buf.subarray(0, n);
    } finally {
      await handle.close();
    }
  }

  async readDir(p: string): Promise<[string, EntryType][]> {
    try {
      const entries = await fsp.readdir(p, { withFileTypes: true });
      const out: [string, EntryType][] = [];
      for (const e of entries) {
        let t = typeOf(e);
        if (e.isSymbolicLink()) {
          const s = await this.stat(path.join(p, e.name));
          t = s ? s.type : 'other';
        }
        out.push([e.name, t]);
      }
      return out;
    } catch {
      return [];
    }
  }

  async *readChunks(p: string, chunkSize = 1 << 20, start = 0): AsyncIterable<Uint8Array> {
    const { handle } = await openRegular(p);
    try {
      for (let at = Math.max(0, start); ;) {
        const buf = Buffer.allocUnsafe(chunkSize);
        const { bytesRead } = await handle.read(buf, 0, chunkSize, at);
        if (bytesRead === 0) break;
        at += bytesRead;
        yield bytesRead === chunkSize ? buf : buf.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }

  async openSequential(p: string): Promise<SequentialReader> {
    const { handle } = await openRegular(p);
    const fd = handle.fd;
    let open = true;
    return {
      // fs.read with a callback: cheaper per call than FileHandle#read.
      read: (into) => new Promise<number>((res, rej) => {
        fs.read(fd, into, 0, into.length, null, (e, n) => (e ? rej(e) : res(n)));
      }),
      close: () => {
        if (!open) return Promise.resolve();
        open = false;
        return handle.close().catch(() => undefined);
      },
    };
  }

  /** On a worker thread (dirLister.ts, one per process); folder by folder here when no worker can start. */
  async listDirs(paths: readonly string[]): Promise<([string, EntryType][] | undefined)[]> {
    try {
      return await sharedDirLister().list(paths);
    } catch {
      return Promise.all(paths.map(async (p) => {
        const list = await this.readDir(p);
        if (list.length) return list;
        return (await this.stat(p))?.type === 'dir' ? list : undefined;
      }));
    }
  }

  /** On the folder lister's worker thread (one text back); readDir here when no worker can start. */
  async listNames(p: string): Promise<string[]> {
    try {
      return await sharedDirLister().names(p);
    } catch {
      return (await this.readDir(p)).map(([name]) => name);
    }
  }

  /** On the folder lister's worker thread; candidate by candidate here when no worker can start. */
  async probeDirs(candidates: readonly (readonly string[])[], names: readonly (readonly [string, EntryType])[]): Promise<Int32Array> {
    try {
      return await sharedDirLister().probe(candidates, names);
    } catch {
      const out = new Int32Array(candidates.length).fill(-1);
      for (let i = 0; i < candidates.length; i++) {
        const c = candidates[i];
        for (let at = 0; at < c.length; at++) {
          const list = await this.readDir(c[at]);
          if (!list.length && (await this.stat(c[at]))?.type !== 'dir') continue;
          let bits = 0;
          for (const [name, type] of list) names.forEach(([n, t], k) => { if (n === name && t === type) bits |= 1 << k; });
          out[i] = (at << 16) | bits;
          break;
        }
      }
      return out;
    }
  }

  /** On the worker thread of listDirs; through the calls of any FsPort when no worker can start. */
  async gather(lists: readonly string[], reads: readonly { path: string; maxBytes: number }[], stats: readonly string[] = []): Promise<{
    lists: ([string, EntryType][] | undefined)[]; reads: FileRead[]; stats: (FileStat | undefined)[];
  }> {
    try {
      return await sharedDirLister().gather(lists, reads, stats);
    } catch {
      return gatherWithCalls(this, lists, reads, stats);
    }
  }

  async mkdirp(p: string): Promise<void> {
    await fsp.mkdir(p, { recursive: true });
  }

  async writeFileAtomic(p: string, data: Uint8Array): Promise<void> {
    await this.atomically(p, (handle) => handle.writeFile(data));
  }

  async writeFileAtomicChunks(p: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
    await this.atomically(p, async (handle) => {
      for await (const c of chunks) {
        for (let at = 0; at < c.length;) at += (await handle.write(c, at, c.length - at)).bytesWritten;
      }
    });
  }

  /** A temp file beside `p` filled by `fill`, flushed, then renamed over `p`; removed on failure. */
  private async atomically(p: string, fill: (handle: fsp.FileHandle) => Promise<void>): Promise<void> {
    const dir = path.dirname(p);
    await fsp.mkdir(dir, { recursive: true });
    const tmp = atomicTempPath(p, process.pid, randomBytes(6).toString('hex'));
    let handle: fsp.FileHandle | undefined;
    try {
      handle = await fsp.open(tmp, 'wx');
      await fill(handle);
      await handle.sync();
      await handle.close();
      handle = undefined;
      await fsp.rename(tmp, p);
      await this.syncFolder(dir);
    } catch (e) {
      if (handle) await handle.close().catch(() => undefined);
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Flushes the folder's entry list, so the rename survives a power loss (the file's bytes were flushed before it).
   * Best effort where a folder cannot be opened or synced (Windows).
   */
  async syncFolder(dir: string): Promise<void> {
    let h: fsp.FileHandle | undefined;
    try {
      h = await fsp.open(dir, 'r');
      await h.sync();
    } catch { /* not supported here */ } finally {
      await h?.close().catch(() => undefined);
    }
  }

  async remove(p: string): Promise<void> {
    await fsp.rm(p, { force: true });
  }

  async realpath(p: string): Promise<string | undefined> {
    try {
      return (await fsp.realpath(p)).split(path.sep).join('/');
    } catch {
      return undefined;
    }
  }

  async realpathDirs(p: string): Promise<string> {
    try {
      return path.join(await fsp.realpath(path.dirname(p)), path.basename(p));
    } catch {
      return p;
    }
  }
}
