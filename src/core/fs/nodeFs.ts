// The Node implementation of FsPort (CLI, unit tests, benchmarks).
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sharedDirLister } from './dirLister';
import { gatherWithCalls } from './gather';
import { type EntryType, type FileRead, type FileStat, type FsPort, type SequentialReader, atomicTempPath } from './port';

function typeOf(s: fs.Stats | fs.Dirent): EntryType {
  return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
}

export class NodeFs implements FsPort {
  async stat(p: string): Promise<FileStat | undefined> {
    try {
      const s = await fsp.stat(p);
      return { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs };
    } catch {
      return undefined;
    }
  }

  async readFile(p: string): Promise<Uint8Array> {
    return fsp.readFile(p);
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

  async *readChunks(p: string, chunkSize = 1 << 20): AsyncIterable<Uint8Array> {
    const handle = await fsp.open(p, 'r');
    try {
      for (;;) {
        const buf = Buffer.allocUnsafe(chunkSize);
        const { bytesRead } = await handle.read(buf, 0, chunkSize, null);
        if (bytesRead === 0) break;
        yield bytesRead === chunkSize ? buf : buf.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }

  async openSequential(p: string): Promise<SequentialReader> {
    const fd = await new Promise<number>((res, rej) => fs.open(p, 'r', (e, d) => (e ? rej(e) : res(d))));
    let open = true;
    return {
      // fs.read with a callback: cheaper per call than FileHandle#read.
      read: (into) => new Promise<number>((res, rej) => {
        fs.read(fd, into, 0, into.length, null, (e, n) => (e ? rej(e) : res(n)));
      }),
      close: () => {
        if (!open) return Promise.resolve();
        open = false;
        return new Promise<void>((res) => fs.close(fd, () => res()));
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
    const dir = path.dirname(p);
    await fsp.mkdir(dir, { recursive: true });
    const tmp = atomicTempPath(p, process.pid, randomBytes(6).toString('hex'));
    let handle: fsp.FileHandle | undefined;
    try {
      handle = await fsp.open(tmp, 'wx');
      await handle.writeFile(data);
      await handle.sync();
      await handle.close();
      handle = undefined;
      await fsp.rename(tmp, p);
    } catch (e) {
      if (handle) await handle.close().catch(() => undefined);
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
  }

  async remove(p: string): Promise<void> {
    await fsp.rm(p, { force: true });
  }

  async realpathDirs(p: string): Promise<string> {
    try {
      return path.join(await fsp.realpath(path.dirname(p)), path.basename(p));
    } catch {
      return p;
    }
  }
}
