// The ONE model holder of the extension: discovers and reads the runs of every workspace folder through the core
// loader (lazily, on first use), re-reads one run at a time when its files change (debounced), and tells every
// view through change events. vscode-free, so it runs under plain Node tests too.
import type { FsPort } from '../core/fs/port';
import type { Run, RunState } from '../core/model';
import { type DiscoveryReport, describeCap, describeLink, discoverRuns, emptyDiscoveryReport, type RunCandidate } from '../core/discovery';
import { readCandidate } from '../core/load';
import { readHarborJobState, rereadHarborTrials } from '../core/readers/harborJob';
import { isAtomicTempPath } from '../core/fs/port';
import { dirname, isWithin as within } from '../core/paths';
import { isRunSummaryPath, rolloutsPathForSummary } from '../core/summary/paths';
import { Disposable, Emitter, type Event, toDisposable } from '../core/lifecycle';
import { withLongestBlock } from './loopBlock';
import { OwnWrites } from './ownWrites';
import { attemptCount, candidateKey, discoveryNotesOf, type Entry, mayMakeRun, prefixesOf, runOfFile, runsConcerned, trialsChanged } from './runStoreEntry';

export interface StoreFolder {
  /** Absolute POSIX path of the workspace folder. */
  path: string;
  name: string;
}

export interface StoreChange {
  /** Ids of the runs that changed in place; undefined when the set of runs changed (added, removed, reloaded). */
  runIds?: string[];
}

export interface RunCompletion {
  run: Run;
  from: RunState;
}

export interface RunStoreOptions {
  fs: FsPort;
  folders: () => StoreFolder[];
  filters: () => { include: string[]; exclude: string[]; maxDirs?: number };
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Quiet time before changed paths are re-read (ms). */
  debounceMs?: number;
  /** Longest a burst of changes can postpone a re-read (ms), so a run that writes continuously still updates. */
  maxWaitMs?: number;
}

/** A run discovered by the first load and not read yet. */
export interface PendingRun {
  folder: string;
  candidate: RunCandidate;
  /** How far its read is (a Harbor job: trial folders read of all), once the reader has said. */
  progress?: { done: number; total: number };
}

/** While the first load reads runs, the tree is told at most this often (ms) that more runs are in. */
const PROGRESS_FIRE_MS = 250;

export class RunStore extends Disposable {
  private readonly entries = new Map<string, Entry>();
  /** Per workspace folder, what its last discovery did not look at (links not followed, the folder cap). */
  private readonly reports = new Map<string, DiscoveryReport>();
  private loading: Promise<void> | undefined;
  private loadedOnce = false;
  /** Resolves once the first load has discovered every folder (its runs may still be being read). */
  private discovered: Promise<void> | undefined;
  private markDiscovered: (() => void) | undefined;
  /** Runs the first load has discovered and not read yet, in reading order. */
  private pending: PendingRun[] = [];
  private queue: Promise<void> = Promise.resolve();
  private pendingPaths = new Set<string>();
  /** Summaries this extension wrote (noteOwnWrite, putWrittenRun): their own watcher events are not changes. */
  private readonly ownWrites: OwnWrites;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstPendingAt = 0;
  private readonly changed = this.register(new Emitter<StoreChange>((err) => this.log('error', `change listener failed: ${String(err)}`)));
  private readonly completed = this.register(new Emitter<RunCompletion>((err) => this.log('error', String(err))));
  private readonly progressed = this.register(new Emitter<void>((err) => this.log('error', `progress listener failed: ${String(err)}`)));
  /** A run was re-read or the set of runs changed. */
  readonly onDidChange: Event<StoreChange> = this.changed.event;
  /** A run that was running is not any more. */
  readonly onRunCompleted: Event<RunCompletion> = this.completed.event;
  /** A run the first load is reading got further (pendingRuns()' progress), at most every PROGRESS_FIRE_MS. */
  readonly onDidProgress: Event<void> = this.progressed.event;

  constructor(private readonly opts: RunStoreOptions) {
    super();
    this.ownWrites = new OwnWrites(opts.fs);
    this.register(toDisposable(() => { if (this.timer) clearTimeout(this.timer); }));
  }

  private fire(e: StoreChange): void {
    this.changed.fire(e);
  }

  private log(level: 'info' | 'warn' | 'error', message: string): void {
    this.opts.log?.(level, message);
  }

  get isLoaded(): boolean {
    return this.loadedOnce;
  }

  /** Discovers and reads every run once; later calls wait for that first load. */
  ensureLoaded(): Promise<void> {
    if (!this.loading) {
      this.discovered = new Promise((resolve) => { this.markDiscovered = resolve; });
      this.loading = this.enqueue(() => this.loadAll());
    }
    return this.loading;
  }

  /**
   * Resolves once the first load knows every run (discovered, not necessarily read): the tree shows the runs read so
   * far and one "Reading…" row per run still being read, and fills in as each run is read.
   */
  whenDiscovered(): Promise<void> {
    void this.ensureLoaded().catch(() => undefined);
    return this.discovered ?? Promise.resolve();
  }

  /** Runs the first load has discovered but not read yet (empty once loaded). */
  pendingRuns(): readonly PendingRun[] {
    return this.pending;
  }

  /** Forgets everything and reads every folder again. */
  reload(): Promise<void> {
    this.loading = this.enqueue(() => this.loadAll());
    return this.loading;
  }

  runs(): Run[] {
    return [...this.entries.values()].map((e) => e.run);
  }

  get(runId: string): Run | undefined {
    return this.entries.get(runId)?.run;
  }

  /** Runs grouped by workspace folder, in folder order, runs sorted by label. */
  byFolder(): { folder: string; name: string; runs: Run[] }[] {
    return this.opts.folders().map((f) => ({
      folder: f.path,
      name: f.name,
      runs: [...this.entries.values()].filter((e) => e.folder === f.path).map((e) => e.run)
        .sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id)),
    }));
  }

  /** The runs a changed path concerns. */
  runsAt(path: string): Run[] {
    return runsConcerned(this.entries.values(), path);
  }

  /** The run whose rollouts file or summary is `path`. */
  runForFile(path: string): Run | undefined {
    return runOfFile(this.entries.values(), path);
  }

  /** The rollouts file a summary is for: its run's own record, else `<stem>.jsonl` beside `<stem>_run_summary.json`. */
  rolloutsForSummary(summaryPath: string): string {
    const run = this.runForFile(summaryPath);
    if (run?.rolloutsPath) return run.rolloutsPath;
    return isRunSummaryPath(summaryPath) ? rolloutsPathForSummary(summaryPath) : summaryPath;
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const p = this.queue.then(job);
    this.queue = p.then(() => undefined, () => undefined);
    return p;
  }

  /**
   * What discovery did not look at, one line each, per workspace folder that has any: links it did not follow (at
   * most `max` of them, then how many more), where the folder cap stopped it, whether links could be resolved at all.
   */
  discoveryNotes(max = 20): { folder: string; name: string; notes: string[] }[] {
    return discoveryNotesOf(this.opts.folders(), this.reports, max);
  }

  private async discover(folder: StoreFolder): Promise<RunCandidate[]> {
    const { include, exclude, maxDirs } = this.opts.filters();
    const report = emptyDiscoveryReport();
    try {
      const found = await discoverRuns(this.opts.fs, folder.path, { include, exclude, maxDirs, report });
      this.reports.set(folder.path, report);
      for (const l of report.links) this.log('info', `discovery: ${describeLink(folder.path, l)}`);
      if (report.capped) this.log('warn', `discovery in ${folder.path}: ${describeCap(report.capped)}`);
      return found;
    } catch (e) {
      this.log('error', `discovery failed in ${folder.path}: ${(e as Error).stack ?? String(e)}`);
      return [];
    }
  }

  private async read(c: RunCandidate, folder: string, onProgress?: (done: number, total: number) => void): Promise<Entry | undefined> {
    const t0 = Date.now();
    try {
      const harbor = c.variant === 'job'
        ? await readHarborJobState(this.opts.fs, c.root, onProgress && { onProgress: (p) => onProgress(p.done, p.total) }).catch(() => undefined)
        : undefined;
      const run = harbor?.run ?? await readCandidate(this.opts.fs, c);
      return { run, candidate: c, folder, prefixes: prefixesOf(run), readAt: Date.now(), readMs: Date.now() - t0, ...(harbor ? { harbor } : {}) };
    } catch (e) {
      this.log('error', `cannot read run ${c.anchor}: ${(e as Error).stack ?? String(e)}`);
      return undefined;
    }
  }

  private async loadAll(): Promise<void> {
    const started = Date.now();
    const { value: count, blockedMs } = await withLongestBlock(() => this.loadAllNow());
    if (count !== undefined) this.log('info', `loaded ${count} run(s) in ${Date.now() - started} ms, longest event-loop block ${blockedMs.toFixed(0)} ms`);
  }

  /** The number of runs read; undefined when the store was disposed meanwhile. */
  private async loadAllNow(): Promise<number | undefined> {
    const fresh = new Map<string, Entry>();
    // The first load shows each run as soon as it is read (a 10,000-trial job does not hold the others back); a
    // reload swaps the whole set at the end, so the tree never shows a half-read set in place of a whole one.
    const first = !this.loadedOnce;
    try {
      const found: PendingRun[] = [];
      for (const folder of this.opts.folders()) {
        for (const candidate of await this.discover(folder)) found.push({ folder: folder.path, candidate });
      }
      if (first) {
        this.pending = [...found];
        this.markDiscovered?.();
        this.fire({});
      }
      let firedAt = Date.now();
      for (const p of found) {
        const { folder, candidate } = p;
        if (this.isDisposed) return undefined;
        let toldAt = 0; // the first batch is told at once, the next ones at most every PROGRESS_FIRE_MS
        const e = await this.read(candidate, folder, first ? (done, total) => {
          p.progress = { done, total };
          if (Date.now() - toldAt >= PROGRESS_FIRE_MS) { toldAt = Date.now(); this.progressed.fire(); }
        } : undefined);
        if (e) fresh.set(e.run.id, e);
        if (!first) continue;
        this.pending = this.pending.filter((p) => p.candidate !== candidate);
        if (e) this.entries.set(e.run.id, e);
        if (Date.now() - firedAt >= PROGRESS_FIRE_MS) { firedAt = Date.now(); this.fire({}); }
      }
      this.entries.clear();
      for (const [k, v] of fresh) this.entries.set(k, v);
      this.loadedOnce = true;
      return fresh.size;
    } finally {
      this.pending = [];
      this.markDiscovered?.();
      this.fire({});
    }
  }

  /** Re-reads one run from its candidate; drops it when its anchor is gone. */
  refreshRun(runId: string): Promise<Run | undefined> {
    return this.enqueue(() => this.refreshOne(runId));
  }

  private async refreshOne(runId: string): Promise<Run | undefined> {
    const old = this.entries.get(runId);
    if (!old) return undefined;
    if (!(await this.opts.fs.stat(old.candidate.anchor))) {
      this.entries.delete(runId);
      this.log('info', `run gone: ${old.candidate.anchor}`);
      this.fire({});
      return undefined;
    }
    const t0 = Date.now();
    const { value: e, blockedMs } = await withLongestBlock(() => this.read(old.candidate, old.folder));
    if (!e) return old.run;
    this.log('info', `re-read ${old.candidate.anchor} in ${Date.now() - t0} ms (${attemptCount(e.run)} attempts), longest event-loop block ${blockedMs.toFixed(0)} ms`);
    return this.replace(old, e);
  }

  private replace(old: Entry, e: Entry): Run {
    const runId = old.run.id;
    this.entries.delete(runId);
    this.entries.set(e.run.id, e);
    this.fire(e.run.id === runId ? { runIds: [runId] } : {});
    if (old.run.state === 'running' && e.run.state !== 'running') {
      this.completed.fire({ run: e.run, from: old.run.state });
    }
    return e.run;
  }

  /** A Harbor job after changes inside a few of its trial folders: only those are read again (else the whole run). */
  private async refreshTrials(runId: string, paths: readonly string[]): Promise<Run | undefined> {
    const old = this.entries.get(runId);
    const names = old && trialsChanged(old, paths);
    if (!old?.harbor || !names) return this.refreshOne(runId);
    const t0 = Date.now();
    const { value: next, blockedMs } = await withLongestBlock(() => rereadHarborTrials(this.opts.fs, old.harbor!, names).catch(() => undefined));
    if (!next) return this.refreshOne(runId);
    const run = next.state.run;
    const readMs = Date.now() - t0;
    this.log('info', `re-read ${names.length} trial folder(s) of ${old.candidate.anchor} in ${readMs} ms (${next.read} attempts), longest event-loop block ${blockedMs.toFixed(0)} ms`);
    return this.replace(old, { ...old, run, prefixes: prefixesOf(run), readAt: Date.now(), readMs, harbor: next.state });
  }

  /**
   * The run of a summary just written (Write Run Summary), built from the writer's own document: it replaces the run
   * the store read from the same rollouts (a virtual one) or from the summary before, without re-discovering or
   * re-reading the folder. undefined when the store held no run for either file (discovery never listed it, e.g. it
   * is excluded or in no workspace folder): the caller then re-discovers as before.
   */
  putWrittenRun(run: Run, summaryPath: string, rolloutsPath: string): Promise<Run | undefined> {
    return this.enqueue(async () => {
      const replaced = [...this.entries].filter(([, e]) => e.candidate.anchor === summaryPath || e.candidate.anchor === rolloutsPath);
      if (replaced.length === 0) return undefined;
      const folder = replaced[0][1].folder;
      for (const [id] of replaced) this.entries.delete(id);
      const candidate: RunCandidate = { kind: 'nemo-gym', anchor: summaryPath, root: dirname(summaryPath), variant: 'summary' };
      this.entries.set(run.id, { run, candidate, folder, prefixes: prefixesOf(run), readAt: Date.now(), readMs: 0 });
      if (!this.ownWrites.has(summaryPath)) this.noteOwnWrite(summaryPath);
      this.fire({});
      return run;
    });
  }

  /** Re-discovers one folder: reads new runs, drops vanished ones; runs already known are kept as they are. */
  reloadFolder(folderPath: string, reread = false): Promise<void> {
    return this.enqueue(() => this.reloadFolderNow(folderPath, reread));
  }

  private async reloadFolderNow(folderPath: string, reread: boolean): Promise<void> {
    const folder = this.opts.folders().find((f) => f.path === folderPath);
    const known = new Map([...this.entries.values()].filter((e) => e.folder === folderPath).map((e) => [candidateKey(e.candidate), e]));
    const candidates = folder ? await this.discover(folder) : [];
    const keep = new Set<string>();
    let changed = false;
    for (const c of candidates) {
      const k = candidateKey(c);
      keep.add(k);
      const had = known.get(k);
      if (had && !reread) continue;
      const e = await this.read(c, folderPath);
      if (!e) continue;
      if (had) this.entries.delete(had.run.id);
      this.entries.set(e.run.id, e);
      changed = true;
    }
    for (const [k, e] of known) {
      if (!keep.has(k)) { this.entries.delete(e.run.id); changed = true; }
    }
    if (changed) this.fire({});
  }

  /** Notes changed paths (watchers); the concerned runs are re-read once the changes settle. */
  notePathsChanged(paths: Iterable<string>): void {
    if (this.isDisposed) return;
    for (const p of paths) {
      if (isAtomicTempPath(p)) continue;
      this.pendingPaths.add(p);
    }
    if (this.pendingPaths.size === 0) return;
    const debounce = this.opts.debounceMs ?? 400;
    const maxWait = this.opts.maxWaitMs ?? 2000;
    const now = Date.now();
    if (!this.timer) this.firstPendingAt = now;
    else clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(debounce, this.firstPendingAt + maxWait - now));
    this.timer = setTimeout(() => { this.timer = undefined; void this.flushPending(false); }, wait);
  }

  /**
   * Paths of runs read less than twice their read time ago are kept for later (a run of 1 GB that is still being
   * written is not re-read continuously); `force` (whenIdle) reads everything now.
   */
  private flushPending(force: boolean): Promise<void> {
    let paths = [...this.pendingPaths];
    this.pendingPaths.clear();
    if (!this.loadedOnce || paths.length === 0) return Promise.resolve();
    if (!force) {
      const now = Date.now();
      let cool = 0;
      const later = paths.filter((p) => this.runsAt(p).some((r) => {
        const e = this.entries.get(r.id);
        if (e && trialsChanged(e, [p])) return false; // a trial's re-read is small: no need to cool down
        const wait = e ? e.readAt + 2 * e.readMs - now : 0;
        cool = Math.max(cool, wait);
        return wait > 0;
      }));
      if (later.length) {
        for (const p of later) this.pendingPaths.add(p);
        paths = paths.filter((p) => !this.pendingPaths.has(p));
        this.firstPendingAt = now;
        this.timer = setTimeout(() => { this.timer = undefined; void this.flushPending(false); }, cool);
      }
    }
    return this.enqueue(async () => {
      const byRun = new Map<string, string[]>();
      const folders = new Set<string>();
      for (const p of paths) {
        if (await this.ownWrites.isUnchanged(p)) continue;
        const runs = this.runsAt(p);
        for (const r of runs) {
          const list = byRun.get(r.id);
          if (list) list.push(p); else byRun.set(r.id, [p]);
        }
        if (mayMakeRun(this.entries.values(), p, runs.length > 0)) {
          const f = this.opts.folders().find((x) => within(p, x.path));
          if (f) folders.add(f.path);
        }
      }
      for (const [id, changed] of byRun) await this.refreshTrials(id, changed);
      for (const f of folders) await this.reloadFolderNow(f, false);
    });
  }

  /**
   * A summary this extension has just written (call it as soon as the write returns): a watcher event of it is not a
   * change to re-read while the file keeps the size and modification time it has now (views/ownWrites.ts).
   */
  noteOwnWrite(summaryPath: string): void {
    this.ownWrites.note(summaryPath);
  }

  /** Resolves when no change is pending and nothing is being read. */
  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
        await this.flushPending(true);
      }
      const q = this.queue;
      await q;
      if (q === this.queue && !this.timer) return;
    }
  }
}
