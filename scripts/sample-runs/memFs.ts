// An in-memory FsPort (absolute POSIX paths → bytes and mtimes), loaded from a generated folder: lets fuzz tests
// mutate files hundreds of times without touching the disk. Folders are implied by the files under them.
// Bytes are private: put() stores its own plain Uint8Array copy (never a Node Buffer, whose slice() is a view, not a
// copy) and readFile() hands out a copy, as NodeFs does. So clones may share entries and a reader or a mutation that
// changes the bytes it got can never change the base a fuzz test clones from.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EntryType, FileStat, FsPort } from '../../src/core/fs/port';
import { listFiles } from './tree';

interface Entry { data: Uint8Array; mtimeMs: number }

export class MemFs implements FsPort {
  readonly files = new Map<string, Entry>();
  private dirs = new Set<string>(['/']);
  /** The latest mtime put so far: a write through the port lands one second after it (a clock that is not the machine's). */
  private latestMs = 0;

  /** A copy of `dir` on disk, mounted at `mount` (default: the same absolute path). */
  static fromDisk(dir: string, mount = path.resolve(dir)): MemFs {
    const m = new MemFs();
    for (const rel of listFiles(dir)) {
      const abs = path.join(dir, rel);
      m.put(`${mount}/${rel}`, fs.readFileSync(abs), fs.statSync(abs).mtimeMs);
    }
    m.addDir(mount);
    return m;
  }

  clone(): MemFs {
    const m = new MemFs();
    for (const [p, e] of this.files) m.files.set(p, { data: e.data, mtimeMs: e.mtimeMs });
    m.dirs = new Set(this.dirs);
    m.latestMs = this.latestMs;
    return m;
  }

  private addDir(d: string): void {
    for (let cur = d; cur && !this.dirs.has(cur); cur = path.posix.dirname(cur)) this.dirs.add(cur);
  }

  put(p: string, data: Uint8Array | string, mtimeMs = 0): void {
    this.files.set(p, { data: typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data), mtimeMs });
    this.latestMs = Math.max(this.latestMs, mtimeMs);
    this.addDir(path.posix.dirname(p));
  }

  /** Removes a file (at once: the promise is already settled). */
  async remove(p: string): Promise<void> {
    this.files.delete(p);
  }

  async stat(p: string): Promise<FileStat | undefined> {
    const f = this.files.get(p);
    if (f) return { type: 'file', size: f.data.length, mtimeMs: f.mtimeMs };
    return this.dirs.has(p.replace(/\/+$/, '') || '/') ? { type: 'dir', size: 0, mtimeMs: 0 } : undefined;
  }

  async readFile(p: string): Promise<Uint8Array> {
    const f = this.files.get(p);
    if (!f) throw Object.assign(new Error(`ENOENT: no such file, open '${p}'`), { code: 'ENOENT' });
    return new Uint8Array(f.data);
  }

  async readDir(p: string): Promise<[string, EntryType][]> {
    const base = p.replace(/\/+$/, '');
    if (!this.dirs.has(base || '/')) return [];
    const out = new Map<string, EntryType>();
    const prefix = base === '' ? '/' : `${base}/`;
    // The root '/' is no entry of itself (its name below the prefix '/' would be '').
    for (const d of this.dirs) if (d.startsWith(prefix) && d.length > prefix.length && !d.slice(prefix.length).includes('/')) out.set(d.slice(prefix.length), 'dir');
    for (const f of this.files.keys()) if (f.startsWith(prefix) && !f.slice(prefix.length).includes('/')) out.set(f.slice(prefix.length), 'file');
    return [...out.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }

  async *readChunks(p: string, chunkSize = 1 << 16, start = 0): AsyncIterable<Uint8Array> {
    const f = this.files.get(p);
    if (!f) throw Object.assign(new Error(`ENOENT: no such file, open '${p}'`), { code: 'ENOENT' });
    // Uint8Array.prototype.slice copies: each chunk is the reader's own.
    for (let i = Math.max(0, start); i < f.data.length; i += chunkSize) yield f.data.slice(i, i + chunkSize);
  }

  async mkdirp(p: string): Promise<void> {
    this.addDir(p);
  }

  async writeFileAtomic(p: string, data: Uint8Array): Promise<void> {
    this.put(p, data, this.latestMs + 1000);
  }

  async realpathDirs(p: string): Promise<string> {
    return p;
  }
}
