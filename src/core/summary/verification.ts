// Rule 7: one verification's log folder and what it holds, plus the paths not on disk. Rows name the folder by the
// ABSOLUTE path it had at run time; a results folder moved as a whole is located by mapping that path from the
// original results root onto the rollouts' folder (MovedRoot).
import type { FsPort } from '../fs/port';
import { isAbsolutePath, joinPath, resolvePath, type PathRelator } from './paths';

export interface VerifierPaths {
  verifier_logs: string | null;
  test_stdout: string | null;
  reward_file: string | null;
  trajectory: string | null;
  artifacts: string | null;
  /** This verification's paths not on disk (relative to the summary). */
  missing: string[];
}

export const NO_VERIFIER_PATHS: Readonly<VerifierPaths> = Object.freeze({
  verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [],
});

/**
 * Maps a path under the results root the run had (`originalRoot`) onto where that root is now (`currentRoot`) when
 * the path as written does not exist. originalRoot comes from run_config.yaml (the folder of `datasets[].jsonl_fpath`,
 * else the parent of `artifacts_dir`), else from the rows (the parent of the verifier folders' common parent).
 */
export class MovedRoot {
  constructor(readonly originalRoot: string | null, readonly currentRoot: string) {}

  map(p: string): string | null {
    const o = this.originalRoot;
    if (!o || o === this.currentRoot) return null;
    if (p === o) return this.currentRoot;
    if (p.startsWith(o.endsWith('/') ? o : `${o}/`)) return joinPath(this.currentRoot, p.slice(o.length + (o.endsWith('/') ? 0 : 1)));
    return null;
  }

  /** The path as written when something is there, else its mapped form (when it maps), else the path as written. */
  async locate(fs: FsPort, p: string): Promise<string> {
    const abs = resolvePath(this.currentRoot, p);
    if (await fs.stat(abs)) return abs;
    const mapped = this.map(abs);
    return mapped ?? abs;
  }
}

/** The common parent of the parents of the rows' verifier folders: a guess at the results root when no config says. */
export function rootFromLogDirs(dirs: Iterable<string>): string | null {
  let common: string[] | null = null;
  for (const d of dirs) {
    if (!isAbsolutePath(d)) continue;
    const parts = d.split('/').filter(Boolean).slice(0, -1);
    if (!common) { common = parts; continue; }
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  if (!common || common.length < 2) return null;
  return `/${common.slice(0, -1).join('/')}`;
}

/** `name` inside the folder `logs` (a relative path, or absolute when the folder has no relative form). */
function joinRel(logs: string, name: string): string {
  if (logs === '.') return name;
  return logs.charCodeAt(logs.length - 1) === 47 ? `${logs.replace(/\/+$/, '')}/${name}` : `${logs}/${name}`;
}

/** A folder's entries; undefined when no folder is there. */
async function listDir(fs: FsPort, dir: string): Promise<[string, 'file' | 'dir' | 'other'][] | undefined> {
  const list = await fs.readDir(dir);
  if (list.length) return list;
  const st = await fs.stat(dir);
  return st && st.type === 'dir' ? list : undefined;
}

/** The verification paths of one row (`logsDir` = the row's `verifier_logs_dir`). */
export async function verifierPaths(fs: FsPort, rel: PathRelator, root: MovedRoot, logsDir: string | null | undefined): Promise<VerifierPaths> {
  // test.sh never ran: nothing to collect, nothing missing.
  if (!logsDir) return { ...NO_VERIFIER_PATHS, missing: [] };
  // One readDir per row in the common case (the folder is there); stat only to tell an empty folder from a gone one.
  let dir = resolvePath(root.currentRoot, logsDir);
  let list = await listDir(fs, dir);
  if (list === undefined) {
    const mapped = root.map(dir);
    if (mapped) { dir = mapped; list = await listDir(fs, dir); }
  }
  if (list === undefined) return { ...NO_VERIFIER_PATHS, missing: [await rel.rel(dir)] };
  return pathsIn(rel, dir, list);
}

/** What a verifier folder holds, as bits (kept per row while the rows are scanned: a number, not five strings). */
const OPTIONAL: readonly [string, 'file' | 'dir'][] = [
  ['test-stdout.txt', 'file'], ['reward.json', 'file'], ['reward.txt', 'file'], ['trajectory.json', 'file'], ['artifacts', 'dir'],
];

function holdings(list: [string, 'file' | 'dir' | 'other'][]): number {
  let bits = 0;
  for (const [name, type] of list) {
    for (let k = 0; k < OPTIONAL.length; k++) if (OPTIONAL[k][0] === name && OPTIONAL[k][1] === type) bits |= 1 << k;
  }
  return bits;
}

/**
 * What the folder holds when it is where the row names it (relative to `currentRoot`), or undefined when nothing is
 * there: the answer then depends on the results root, known only once every row was read (MovedRoot). What the
 * prefetch runs while the rows are still being scanned.
 */
async function holdingsAsWritten(fs: FsPort, currentRoot: string, logsDir: string): Promise<number | undefined> {
  const list = await listDir(fs, resolvePath(currentRoot, logsDir));
  return list === undefined ? undefined : holdings(list);
}

async function pathsIn(rel: PathRelator, dir: string, list: [string, 'file' | 'dir' | 'other'][]): Promise<VerifierPaths> {
  return pathsOf(rel, dir, holdings(list));
}

async function pathsOf(rel: PathRelator, dir: string, bits: number): Promise<VerifierPaths> {
  // The folder is located as rule 6 says (its parent's links resolved, its own name kept); what it holds is named
  // under it, so a folder that is a link keeps its name in every path (and a 40k-row run costs one readDir per row).
  return pathsUnder(await rel.rel(dir), bits);
}

function pathsUnder(logs: string, bits: number): VerifierPaths {
  const file = (k: number) => (bits & (1 << k) ? joinRel(logs, OPTIONAL[k][0]) : null);
  // An absent optional file (no artifacts/ in shared mode, no trajectory when the export was skipped, no reward file
  // when test.sh wrote none) is listed as nothing: those are not promised.
  return {
    verifier_logs: logs,
    test_stdout: file(0),
    reward_file: file(1) ?? file(2),
    trajectory: file(3),
    artifacts: file(4),
    missing: [],
  };
}

/**
 * Runs async jobs with at most `limit` in flight (the libuv pool has 4 threads: a few dozen queued listings keep it
 * busy while the main thread scans, without queueing 40k requests at once).
 */
export class Pool {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private head = 0;

  constructor(private readonly limit: number) {}

  run<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.inFlight++;
        let p: Promise<T>;
        try { p = job(); } catch (e) { p = Promise.reject(e); }
        void p.then(resolve, reject).finally(() => { this.inFlight--; this.next(); });
      };
      if (this.inFlight < this.limit) start();
      else this.waiting.push(start);
    });
  }

  /** Jobs not started yet. */
  get backlog(): number { return this.waiting.length - this.head; }

  private lowWater: { n: number; resolve: () => void } | undefined;

  /** Resolves once at most `n` jobs wait; undefined when that is already so. */
  whenBacklogAtMost(n: number): Promise<void> | undefined {
    if (this.backlog <= n) return undefined;
    return new Promise((resolve) => {
      const prev = this.lowWater;
      this.lowWater = { n, resolve: () => { prev?.resolve(); resolve(); } };
    });
  }

  private next(): void {
    if (this.head < this.waiting.length) {
      const start = this.waiting[this.head];
      this.waiting[this.head++] = undefined as unknown as () => void;
      if (this.head > 1024 && this.head * 2 > this.waiting.length) { this.waiting.splice(0, this.head); this.head = 0; }
      start();
    }
    if (this.lowWater && this.backlog <= this.lowWater.n) {
      const w = this.lowWater;
      this.lowWater = undefined;
      w.resolve();
    }
  }
}

/**
 * Lists the rows' verifier folders while the rows are still being read (rule 7's common case: the folder is where the
 * row names it), so the disk work overlaps the scan instead of following it. `take` hands back the prefetched
 * answer for a folder (undefined: not found as written, or never asked) and forgets it (memory stays per repeat).
 */
/** Listings allowed to wait before the scan pauses for them (about 1 MB of queued jobs). */
const PREFETCH_BACKLOG = 2048;

/** Folders per listDirs call, and batches allowed in flight before the scan waits for them. */
const BATCH = 256;
const BATCHES_IN_FLIGHT = 8;

export class VerifierPrefetch {
  private readonly pending = new Map<string, Promise<number | undefined>>();
  /** What the settled listings found (undefined: no folder there), until taken. */
  private readonly settled = new Map<string, number | undefined>();
  private readonly pool: Pool;
  /** With a backend that lists folders in batches (FsPort.listDirs): the batch being filled, and those in flight. */
  private batch: { dirs: string[]; settle: ((bits: number | undefined) => void)[] } = { dirs: [], settle: [] };
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly fs: FsPort, private readonly rel: PathRelator, private readonly currentRoot: string, limit = 48) {
    this.pool = new Pool(limit);
  }

  add(logsDir: string): void {
    if (this.pending.has(logsDir)) return;
    if (this.fs.listDirs) {
      const p = new Promise<number | undefined>((resolve) => {
        this.batch.dirs.push(resolvePath(this.currentRoot, logsDir));
        this.batch.settle.push((bits) => { this.settled.set(logsDir, bits); resolve(bits); });
      });
      this.pending.set(logsDir, p);
      if (this.batch.dirs.length >= BATCH) this.flush();
      return;
    }
    const p = this.pool.run(() => holdingsAsWritten(this.fs, this.currentRoot, logsDir)).catch(() => undefined);
    this.pending.set(logsDir, p);
  }

  private flush(): void {
    const { dirs, settle } = this.batch;
    if (!dirs.length) return;
    this.batch = { dirs: [], settle: [] };
    const done: Promise<void> = this.fs.listDirs!(dirs).then(
      (lists) => { for (let i = 0; i < settle.length; i++) settle[i](lists[i] === undefined ? undefined : holdings(lists[i]!)); },
      () => { for (const s of settle) s(undefined); },
    ).finally(() => { this.inFlight.delete(done); });
    this.inFlight.add(done);
  }

  /** After a chunk of rows: when too many listings wait, a promise to let them catch up (memory stays bounded). */
  backpressure(): Promise<void> | undefined {
    if (this.fs.listDirs) {
      this.flush();
      return this.inFlight.size > BATCHES_IN_FLIGHT ? Promise.race(this.inFlight) : undefined;
    }
    return this.pool.backlog > PREFETCH_BACKLOG ? this.pool.whenBacklogAtMost(PREFETCH_BACKLOG / 4) : undefined;
  }

  /**
   * take() without waiting, for the common case (the listing has settled, the folder's parent was located before):
   * the folder's paths; null when take() must be awaited instead.
   */
  takeNow(logsDir: string): VerifierPaths | null {
    const bits = this.settled.get(logsDir);
    if (bits === undefined) return null;
    const logs = this.rel.relSync(resolvePath(this.currentRoot, logsDir));
    if (logs === undefined) return null;
    this.pending.delete(logsDir);
    this.settled.delete(logsDir);
    return pathsUnder(logs, bits);
  }

  async take(logsDir: string): Promise<VerifierPaths | undefined> {
    const p = this.pending.get(logsDir);
    if (!p) return undefined;
    this.flush();
    this.pending.delete(logsDir);
    this.settled.delete(logsDir);
    const bits = await p;
    return bits === undefined ? undefined : pathsOf(this.rel, resolvePath(this.currentRoot, logsDir), bits);
  }
}
