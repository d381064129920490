// Lists many folders on a worker thread (Node only): the summary writer lists one verifier folder per row, and 40k
// asynchronous readdir calls cost the main thread more than the scan of the rows itself. The worker takes batches of
// paths and answers each with its entries (readdirSync: one open, getdents, close per folder), so the listing runs
// on another core while the main thread scans. The worker is started on first use and does not keep the process
// alive when idle.
import { Worker } from 'node:worker_threads';
import type { EntryType } from './port';

export type Listing = [string, EntryType][] | undefined;

// Plain JavaScript run with `eval: true`: no second bundle to ship. Same answers as NodeFs.readDir followed by a
// stat for an empty answer (verification.ts listDir): entries; [] for an empty or unreadable folder; undefined when
// no folder is there. A link is reported as what it points to ('other' when broken).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
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
// probe: per item, the first candidate that is a folder and which of the wanted names it holds, as one number:
// -1 when no candidate is a folder, else (candidate index << 16) | (bit k set when names[k] is there with its type).
function probe(candidates, names) {
  const out = new Int32Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    let v = -1;
    for (let at = 0; at < c.length && v < 0; at++) {
      const l = list(c[at]);
      if (l === undefined) continue;
      let bits = 0;
      for (const [name, type] of l) for (let k = 0; k < names.length; k++) if (names[k][0] === name && names[k][1] === type) bits |= 1 << k;
      v = (at << 16) | bits;
    }
    out[i] = v;
  }
  return out;
}
parentPort.on('message', (m) => {
  if (m.candidates) {
    const out = probe(m.candidates, m.names);
    parentPort.postMessage({ id: m.id, out }, [out.buffer]);
    return;
  }
  const out = new Array(m.paths.length);
  for (let i = 0; i < m.paths.length; i++) out[i] = list(m.paths[i]);
  parentPort.postMessage({ id: m.id, out });
});
`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
interface Pending { resolve(v: any): void; reject(e: Error): void }

export class DirLister {
  private worker: Worker | undefined;
  private failed: Error | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** Entries of every path, in order; rejects when no worker can run (the caller then lists the folders itself). */
  list(paths: readonly string[]): Promise<Listing[]> {
    return this.ask<Listing[]>({ paths });
  }

  /** FsPort.probeDirs on the worker: one number per item (see port.ts). */
  probe(candidates: readonly (readonly string[])[], names: readonly (readonly [string, EntryType])[]): Promise<Int32Array> {
    return this.ask<Int32Array>({ candidates, names });
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
    const w = new Worker(WORKER_SOURCE, { eval: true });
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
