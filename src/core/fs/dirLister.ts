// Lists many folders and reads many small files on a worker thread (Node only): the summary writer lists one
// verifier folder per row, the readers read one result.json and list a few folders per trial, and 40k asynchronous
// readdir / open + fstat + read + close calls cost the main thread more than the parsing itself. The worker takes
// batches of paths and answers each synchronously (readdirSync: one open, getdents, close per folder; a file: open,
// read into one reused buffer, close; statSync where only a file's time is needed), so the file system work runs on another core while the main thread parses.
// The worker is started on first use and does not keep the process alive when idle.
import { Worker } from 'node:worker_threads';
import type { EntryType, FileRead, FileStat } from './port';

export type Listing = [string, EntryType][] | undefined;

/** A file read by the worker as it travels back: its text, null when nothing is there, its size when over the cap. */
type WireRead = string | null | number | { error: string } | { text: string; badUtf8Line: number };

// Plain JavaScript run with `eval: true`: no second bundle to ship. Same answers as NodeFs.readDir followed by a
// stat for an empty answer (verification.ts listDir): entries; [] for an empty or unreadable folder; undefined when
// no folder is there. A link is reported as what it points to ('other' when broken).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { isUtf8 } = require('node:buffer');
/** Offset of the first byte that is not part of well-formed UTF-8 (as core/honestInput.ts invalidUtf8At). */
function firstBad(b, end) {
  for (let i = 0; i < end;) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= end) return i;
    const c1 = b[i + 1];
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f) || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return i;
    for (let k = 1; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return end;
}
const typeOf = (s) => (s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other');
const GONE = new Set(['ENOENT', 'ENOTDIR']);
function list(p) {
  let ents;
  try { ents = fs.readdirSync(p, { withFileTypes: true }); }
  catch (e) {
    // Nothing there (the common failure): one thrown error, no stat.
    if (e && GONE.has(e.code)) return undefined;
    try { return fs.statSync(p).isDirectory() ? [] : undefined; } catch { return undefined; }
  }
  const out = new Array(ents.length);
  for (let i = 0; i < ents.length; i++) {
    const e = ents[i];
    let t = typeOf(e);
    if (e.isSymbolicLink()) { try { t = typeOf(fs.statSync(p + '/' + e.name)); } catch { t = 'other'; } }
    out[i] = [e.name, t];
  }
  return out;
}
// Folders whose parent is gone (a results folder moved away: every row names a folder under the old root). Their
// readdir would throw ENOENT one by one (~20 µs each, most of a moved run's probing); after the first, the parent is
// stat-ed once and, while it stays gone, its children are answered without a system call. An answer is trusted for
// GONE_MS only (the worker is shared and long-lived; folders may appear while a run writes). Only a parent that is
// not there (or not a folder) is cached: then no name under it can be listed, on any file system.
const GONE_MS = 1000;
const goneParents = new Map();
function parentOf(p) {
  const k = p.lastIndexOf('/');
  return k > 0 ? p.slice(0, k) : k === 0 ? '/' : '';
}
function parentGone(p) {
  const at = goneParents.get(parentOf(p));
  return at !== undefined && Date.now() - at < GONE_MS;
}
function noteMissing(p) {
  const parent = parentOf(p);
  if (!parent || goneParents.has(parent) && Date.now() - goneParents.get(parent) < GONE_MS) return;
  let st;
  try { st = fs.statSync(parent, { throwIfNoEntry: false }); } catch (e) { st = e && GONE.has(e.code) ? undefined : null; }
  if (st === undefined || (st && !st.isDirectory())) {
    if (goneParents.size > 4096) goneParents.clear();
    goneParents.set(parent, Date.now());
  } else goneParents.delete(parent);
}
// A folder whose last child probed was not there (a moved results folder whose old root is still there, with a few
// of its folders): its next child is stat-ed first, a miss then costing a stat (~3 µs) rather than a thrown readdir
// (~20 µs); a folder whose children are there is listed at once (a stat more each would cost as much again).
let missingUnder = '';
function probeList(p) {
  if (parentGone(p)) return undefined;
  const parent = parentOf(p);
  if (parent === missingUnder) {
    let st;
    try { st = fs.statSync(p, { throwIfNoEntry: false }); } catch { st = null; }
    if (st === undefined) { noteMissing(p); return undefined; }
  }
  const l = list(p);
  if (l === undefined) { missingUnder = parent; noteMissing(p); } else if (parent === missingUnder) missingUnder = '';
  return l;
}
// probe: per item, the first candidate that is a folder and which of the wanted names it holds, as one number:
// -1 when no candidate is a folder, else (candidate index << 16) | (bit k set when names[k] is there with its type).
function probe(candidates, names) {
  const out = new Int32Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    let v = -1;
    for (let at = 0; at < c.length && v < 0; at++) {
      const l = probeList(c[at]);
      if (l === undefined) continue;
      let bits = 0;
      for (const [name, type] of l) for (let k = 0; k < names.length; k++) if (names[k][0] === name && names[k][1] === type) bits |= 1 << k;
      v = (at << 16) | bits;
    }
    out[i] = v;
  }
  return out;
}
const SMALL = 1 << 16;
let buf = Buffer.allocUnsafe(SMALL);
function read(p, max) {
  let fd;
  // Non-blocking open and the opened file's own type: a FIFO, a device or a socket is never read (it would block
  // this thread, and every batch behind it, forever).
  try { fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0)); }
  catch (e) { return e.code === 'ENOENT' || e.code === 'ENOTDIR' ? null : { error: e.message }; }
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) return { error: 'a folder, not a file' };
    if (!st.isFile()) return { error: 'not a regular file (a FIFO, a device or a socket): not read' };
    // Read up to the cap and one byte more: a file that fills it is over the cap (its size then comes from fstat).
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (buf.length > max) break;
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, max + 1));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const k = fs.readSync(fd, buf, n, buf.length - n, null);
      if (k === 0) break;
      n += k;
      if (n > max) break;
      // The whole file as fstat sized it, from a read that asked for more: a regular file read short is at its end
      // (what Node's own readFileSync trusts), so no second read is made only to be told so (~1 s of this thread's
      // system calls per 100,000 files). A file that grew since the fstat is read on to its end.
      if (n === st.size && n < buf.length) break;
    }
    if (n > max) return fs.fstatSync(fd).size;
    const text = buf.toString('utf8', 0, n);
    // Bytes that are not UTF-8 decode as U+FFFD: the reader is told the first line where that happened.
    if (!isUtf8 || isUtf8(buf.subarray(0, n))) return text;
    let line = 1;
    const bad = firstBad(buf, n);
    for (let i = 0; i < bad; i++) if (buf[i] === 10) line++;
    return { text, badUtf8Line: line };
  } catch (e) {
    return e.code === 'EISDIR' ? { error: 'a folder, not a file' } : { error: e.message };
  } finally {
    fs.closeSync(fd);
    if (buf.length > SMALL) buf = Buffer.allocUnsafe(SMALL);
  }
}
// The names in one folder as one text ('\\0' between names: the one byte no name holds); null when it is not a folder.
function names(p) {
  try { return fs.readdirSync(p).join('\\0'); }
  catch (e) {
    if (e && GONE.has(e.code)) return null;
    try { return fs.statSync(p).isDirectory() ? '' : null; } catch { return null; }
  }
}
parentPort.on('message', (m) => {
  if (m.namesOf !== undefined) {
    parentPort.postMessage({ id: m.id, out: names(m.namesOf) });
    return;
  }
  if (m.candidates) {
    const out = probe(m.candidates, m.names);
    parentPort.postMessage({ id: m.id, out }, [out.buffer]);
    return;
  }
  if (m.reads) {
    const lists = new Array(m.lists.length);
    for (let i = 0; i < m.lists.length; i++) lists[i] = list(m.lists[i]);
    const reads = new Array(m.reads.length);
    for (let i = 0; i < m.reads.length; i++) reads[i] = read(m.reads[i], m.max[i]);
    const stats = new Array(m.stats.length);
    for (let i = 0; i < m.stats.length; i++) {
      let s;
      try { s = fs.statSync(m.stats[i], { throwIfNoEntry: false }); } catch { s = undefined; }
      stats[i] = s ? { type: typeOf(s), size: s.size, mtimeMs: s.mtimeMs } : undefined;
    }
    parentPort.postMessage({ id: m.id, out: { lists, reads, stats } });
    return;
  }
  const out = new Array(m.paths.length);
  for (let i = 0; i < m.paths.length; i++) out[i] = list(m.paths[i]);
  parentPort.postMessage({ id: m.id, out });
});
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
interface Pending { resolve(v: any): void; reject(e: Error): void }

function fromWire(r: WireRead): FileRead {
  if (typeof r === 'string') return { text: r };
  if (r === null) return { missing: true };
  if (typeof r === 'number') return { tooBig: r };
  if ('text' in r) return { text: r.text, badUtf8Line: r.badUtf8Line };
  return { error: r.error };
}

export class DirLister {
  private worker: Worker | undefined;
  private failed: Error | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** `source`: the worker's code, run with `eval` (tests give one that exits on its own or answers an unknown id). */
  constructor(private readonly source = WORKER_SOURCE) {}

  /** Entries of every path, in order; rejects when no worker can run (the caller then lists the folders itself). */
  list(paths: readonly string[]): Promise<Listing[]> {
    return this.ask<Listing[]>({ paths });
  }

  /** FsPort.listNames on the worker: the names in one folder, [] when it is not a folder (see port.ts). */
  async names(path: string): Promise<string[]> {
    const text = await this.ask<string | null>({ namesOf: path });
    return text ? text.split('\0') : [];
  }

  /** FsPort.probeDirs on the worker: one number per item (see port.ts). */
  probe(candidates: readonly (readonly string[])[], names: readonly (readonly [string, EntryType])[]): Promise<Int32Array> {
    return this.ask<Int32Array>({ candidates, names });
  }

  /**
   * Folders listed and files read (each up to its byte cap), in order; rejects when no worker can run. A file over
   * its cap is answered with its size, not its bytes.
   */
  async gather(
    lists: readonly string[], reads: readonly { path: string; maxBytes: number }[], stats: readonly string[] = [],
  ): Promise<{ lists: Listing[]; reads: FileRead[]; stats: (FileStat | undefined)[] }> {
    const out = await this.ask<{ lists: Listing[]; reads: WireRead[]; stats: (FileStat | undefined)[] }>({
      lists, reads: reads.map((r) => r.path), max: reads.map((r) => r.maxBytes), stats,
    });
    return { lists: out.lists, reads: out.reads.map(fromWire), stats: out.stats };
  }

  private ask<T>(message: object): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const w = this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) w.ref();
      w.postMessage({ id, ...message });
    });
  }

  /** Stops the worker (pending lists are rejected). */
  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.fail(new Error('the folder lister was stopped'), false);
    if (w) await w.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.source, { eval: true });
    w.unref();
    w.on('message', (m: { id: number; out: unknown }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) w.unref();
      p.resolve(m.out);
    });
    w.on('error', (e) => this.fail(e instanceof Error ? e : new Error(String(e)), true));
    w.on('exit', () => { if (this.worker === w) this.fail(new Error('the folder lister exited'), true); });
    this.worker = w;
    return w;
  }

  private fail(e: Error, permanent: boolean): void {
    if (permanent) { this.failed = e; this.worker = undefined; }
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(e);
  }
}

let shared: DirLister | undefined;

/** The process's one folder lister (every NodeFs shares its worker thread). */
export function sharedDirLister(): DirLister {
  shared ??= new DirLister();
  return shared;
}
