// Rule 7: one verification's log folder and what it holds, plus the paths not on disk. Rows name the folder by the
// ABSOLUTE path it had at run time; a results folder moved as a whole is located by mapping that path from the
// original results root onto the rollouts' folder (MovedRoot).
import type { FsPort } from '../fs/port';
import { isAbsolutePath, isNormalAbsolute, joinPath, normalizePath, resolvePath, type PathRelator } from './paths';

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
  /** `originalRoot` with one trailing slash, and `currentRoot` without one when it is a normal path (else null). */
  private readonly under: string | null;
  private readonly normalCurrent: string | null;

  constructor(readonly originalRoot: string | null, readonly currentRoot: string) {
    const o = originalRoot;
    this.under = o ? (o.endsWith('/') ? o : `${o}/`) : null;
    const c = currentRoot.replace(/\/+$/, '');
    this.normalCurrent = isNormalAbsolute(c) ? c : null;
  }

  map(p: string): string | null {
    const o = this.originalRoot;
    if (!o || o === this.currentRoot) return null;
    if (p === o) return this.currentRoot;
    if (!p.startsWith(this.under!)) return null;
    const rest = p.slice(this.under!.length);
    // A normal path's tail under a normal root needs no normalising (a 40k-row moved run maps every folder).
    if (this.normalCurrent !== null && isNormalAbsolute(p)) return `${this.normalCurrent}/${rest}`;
    return joinPath(this.currentRoot, rest);
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

/** Listings allowed to wait before the scan pauses for them (about 1 MB of queued jobs). */
const PREFETCH_BACKLOG = 2048;

/** Folders per probeDirs call, and batches allowed in flight before the scan waits for them. */
const BATCH = 256;
const BATCHES_IN_FLIGHT = 8;
/** Rows' folders looked at to guess the original results root when no run config names it. */
const ROOT_SAMPLE = 64;
/** What a probe found: no candidate is a folder; or not where the row names it, with no other place tried. */
const NONE = -1, NOT_AS_WRITTEN = -2;

/**
 * Rule 6 for a verifier folder: its folders' links resolved before any `..` is applied (as the seed's `_located`
 * does), its own name kept. A normal absolute path (the common case) is taken as it is, without asking the disk.
 */
export async function locatedDir(fs: FsPort, currentRoot: string, logsDir: string): Promise<string> {
  if (isNormalAbsolute(logsDir)) return logsDir;
  const raw = isAbsolutePath(logsDir) ? logsDir : `${currentRoot.replace(/\/+$/, '')}/${logsDir}`;
  const base = raw.replace(/\/+$/, '').split('/').pop();
  // A last `.` names the parent itself (kept, as a link keeps its name); a last `..` is applied after the links too.
  if (!base || base === '.') return normalizePath(raw);
  try {
    return normalizePath(await fs.realpathDirs(raw.replace(/\/+$/, '')));
  } catch {
    return normalizePath(raw);
  }
}

/** The candidates of a folder: where the row names it, then (a moved results folder) where that root is now. */
function candidatesOf(root: MovedRoot | null, dir: string): string[] {
  const mapped = root?.map(dir);
  return mapped && mapped !== dir ? [dir, mapped] : [dir];
}

/** One folder probed by the backend's own means (readDir, then stat to tell an empty folder from a gone one). */
async function probeOne(fs: FsPort, candidates: readonly string[]): Promise<number> {
  for (let at = 0; at < candidates.length; at++) {
    const list = await listDir(fs, candidates[at]);
    if (list !== undefined) return (at << 16) | holdings(list);
  }
  return NONE;
}

/** Many folders probed: in batches through FsPort.probeDirs (a worker thread on Node), else a bounded pool. */
async function probeMany(fs: FsPort, candidates: string[][], pool: Pool, signal?: AbortSignal): Promise<Int32Array> {
  const out = new Int32Array(candidates.length);
  const CHUNK = 4096;
  for (let i = 0; i < candidates.length; i += CHUNK) {
    if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
    const part = candidates.slice(i, i + CHUNK);
    const got = fs.probeDirs ? await fs.probeDirs(part, OPTIONAL).catch(() => undefined) : undefined;
    if (got) out.set(got, i);
    else out.set(await Promise.all(part.map((c) => pool.run(() => probeOne(fs, c)))), i);
  }
  return out;
}

/**
 * The folders the scan did not find where the rows name them (gone, in a moved results folder, or named through
 * `..`), located now that the results root is known: where the row names them (links resolved first), else where
 * the moved root puts them. Probed in batches; a folder found nowhere is its verification's missing path.
 */
export async function resolveMissing(fs: FsPort, rel: PathRelator, root: MovedRoot, logsDirs: readonly string[],
  signal?: AbortSignal): Promise<VerifierPaths[]> {
  if (!logsDirs.length) return [];
  const candidates: string[][] = [];
  for (const d of logsDirs) candidates.push(candidatesOf(root, await locatedDir(fs, root.currentRoot, d)));
  const found = await probeMany(fs, candidates, new Pool(48), signal);
  const out: VerifierPaths[] = new Array(logsDirs.length);
  for (let i = 0; i < logsDirs.length; i++) {
    const c = candidates[i];
    const v = found[i];
    out[i] = v >= 0 ? await pathsOf(rel, c[v >>> 16], v & 0xffff)
      : { ...NO_VERIFIER_PATHS, missing: [await rel.rel(c[c.length - 1])] };
  }
  return out;
}

interface Batch { logs: string[]; candidates: string[][]; done?: Promise<void> }

/**
 * Probes the rows' verifier folders while the rows are still being read (rule 7's common case: the folder is where
 * the row names it, or where the moved results root puts it), so the disk work overlaps the scan instead of
 * following it. With FsPort.probeDirs the folders go to a worker thread in batches and come back as one number each
 * (no listing crosses threads, no promise per folder). `take` hands back the answer and forgets it (memory stays
 * per repeat); 'slow' when the folder must be located after the scan (resolveMissing).
 */
export class VerifierPrefetch {
  /** Per folder: the batch it is in (in flight), or what the probe found (see probeDirs; NONE, NOT_AS_WRITTEN). */
  private readonly state = new Map<string, Batch | number>();
  private readonly pool: Pool;
  private batch: Batch = { logs: [], candidates: [] };
  private readonly inFlight = new Set<Promise<void>>();
  /** The moved results root, when known: a folder not where the row names it is then probed there too. */
  private root: MovedRoot | null;
  private readonly sample: string[] = [];

  constructor(private readonly fs: FsPort, private readonly rel: PathRelator, private readonly currentRoot: string,
    root: MovedRoot | null, limit = 48) {
    this.pool = new Pool(limit);
    this.root = root?.originalRoot ? root : null;
  }

  /**
   * No run config named the original root: the rows' first folders name it (as build.ts guesses it after the scan,
   * rootFromLogDirs); when it is gone, the folders after are probed in the moved root too.
   */
  private sampleRoot(logsDir: string): void {
    if (this.root || this.sample.length >= ROOT_SAMPLE) return;
    this.sample.push(logsDir);
    if (this.sample.length < ROOT_SAMPLE) return;
    const guess = rootFromLogDirs(this.sample);
    if (guess) void this.fs.stat(guess).then((st) => { if (!st && !this.root) this.root = new MovedRoot(guess, this.currentRoot); }, () => undefined);
  }

  add(logsDir: string): void {
    if (this.state.has(logsDir)) return;
    // A path through `..` or `.` is located after the scan (its links resolved first, rule 6).
    const dir = isAbsolutePath(logsDir) ? logsDir : `${this.currentRoot.replace(/\/+$/, '')}/${logsDir}`;
    if (!isNormalAbsolute(dir)) { this.state.set(logsDir, NOT_AS_WRITTEN); return; }
    this.sampleRoot(logsDir);
    const b: Batch = this.fs.probeDirs ? this.batch : { logs: [], candidates: [] };
    b.logs.push(logsDir);
    b.candidates.push(candidatesOf(this.root, dir));
    this.state.set(logsDir, b);
    if (this.fs.probeDirs) {
      if (b.logs.length >= BATCH) this.flush();
      return;
    }
    b.done = this.pool.run(() => probeOne(this.fs, b.candidates[0])).then((v) => this.settle(b, 0, v), () => this.settle(b, 0, NOT_AS_WRITTEN));
  }

  private settle(b: Batch, i: number, v: number): void {
    const d = b.logs[i];
    if (this.state.get(d) !== b) return;
    // Not found, and the moved root not tried: located again after the scan (the root may be known by then).
    this.state.set(d, v === NONE && b.candidates[i].length === 1 ? NOT_AS_WRITTEN : v);
    if (v >= 0 && b.candidates[i].length > 1) this.found.set(d, b.candidates[i][v >>> 16]);
    else if (v === NONE) this.found.set(d, b.candidates[i][b.candidates[i].length - 1]);
  }

  /** Where a settled probe found the folder (or, for NONE, the place it was last looked for), when not as written. */
  private readonly found = new Map<string, string>();

  private flush(): void {
    const b = this.batch;
    if (!b.logs.length) return;
    this.batch = { logs: [], candidates: [] };
    const done: Promise<void> = this.fs.probeDirs!(b.candidates, OPTIONAL).then(
      (got) => { for (let i = 0; i < b.logs.length; i++) this.settle(b, i, got[i]); },
      () => { for (let i = 0; i < b.logs.length; i++) this.settle(b, i, NOT_AS_WRITTEN); },
    ).finally(() => { this.inFlight.delete(done); });
    b.done = done;
    this.inFlight.add(done);
  }

  /** After a chunk of rows: when too many probes wait, a promise to let them catch up (memory stays bounded). */
  backpressure(): Promise<void> | undefined {
    if (this.fs.probeDirs) {
      this.flush();
      return this.inFlight.size > BATCHES_IN_FLIGHT ? Promise.race(this.inFlight) : undefined;
    }
    return this.pool.backlog > PREFETCH_BACKLOG ? this.pool.whenBacklogAtMost(PREFETCH_BACKLOG / 4) : undefined;
  }

  private dirOf(logsDir: string): string {
    return this.found.get(logsDir) ?? resolvePath(this.currentRoot, logsDir);
  }

  private forget(logsDir: string): void {
    this.state.delete(logsDir);
    this.found.delete(logsDir);
  }

  /** The paths of a settled probe without waiting (the folder's parent located before); undefined otherwise. */
  takeNow(logsDir: string): VerifierPaths | 'slow' | undefined {
    const v = this.state.get(logsDir);
    if (typeof v !== 'number') return undefined;
    if (v === NOT_AS_WRITTEN) { this.forget(logsDir); return 'slow'; }
    const logs = this.rel.relSync(this.dirOf(logsDir));
    if (logs === undefined) return undefined;
    this.forget(logsDir);
    return v === NONE ? { ...NO_VERIFIER_PATHS, missing: [logs] } : pathsUnder(logs, v & 0xffff);
  }

  /** The folder's paths once probed; 'slow' when never asked or not found where the row names it. */
  async take(logsDir: string): Promise<VerifierPaths | 'slow'> {
    let v = this.state.get(logsDir);
    if (v === undefined) return 'slow';
    if (typeof v !== 'number') {
      this.flush();
      await v.done;
      v = this.state.get(logsDir);
      if (typeof v !== 'number') { this.forget(logsDir); return 'slow'; }
    }
    const now = this.takeNow(logsDir);
    if (now !== undefined) return now;
    // The folder's parent is not located yet: once, then every folder in it is taken without waiting.
    await this.rel.rel(this.dirOf(logsDir));
    return this.takeNow(logsDir) ?? 'slow';
  }
}
