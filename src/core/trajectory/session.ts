// One opened trajectory and the questions the trajectory editor asks of it, by index only: the outline of the
// trajectory or of a nested subagent (`path`: subagent indexes from the top), a step with its media paths and
// per-token logprobs, a search, a step's or the document's raw JSON, a subagent, a problem. vscode-free; it runs in
// a worker thread (worker.ts, through remote.ts) so a 100 MB trajectory never blocks the extension host.
import type { TrajectoryFs } from './read';
import { isObj, pretty } from './json';
import { loadTrajectory, type LoadProgress } from './load';
import type { KeptDoc } from './read';
import { stepMedia, type RealPath } from './media';
import { headerOf, rowsOf, type OutlineHeader, type OutlineRow } from './outline';
import { TrajectorySearch, type SearchResult } from './search';
import type { StepView, SubagentRefKind, TrajectoryView } from './types';

/** Where in the nesting: subagent indexes from the top trajectory ([] = the top). */
export type SubPath = readonly number[];

export interface StepAnswer {
  step: StepView;
  /** Absolute paths of the step's media parts by key (see media.ts), null when not loadable. */
  media: Record<string, string | null>;
  /** Why a media part is not loaded, by the same key. */
  refused: Record<string, string>;
  tokens: { ids: number[] | null; logprobs: number[] } | null;
}

export interface SubagentAnswer {
  kind: SubagentRefKind; ref: string; path: string | null; agent: string | null; unresolved: string | null; hasView: boolean;
}

/** What the editor asks; every answer is plain data (structured-clone safe). */
/** Reading progress of the top trajectory's own file; null once everything (continuations, subagents) is read. */
export type Loading = LoadProgress | null;

export interface TrajectoryQueries {
  /** The header and the first `limit` rows (all by default); `total`: the rows read so far. */
  outline(path: SubPath, limit?: number): { header: OutlineHeader; rows: OutlineRow[]; total: number; loading: Loading } | null;
  /** Outline rows from `from` on, at most `limit` (the top trajectory while it is read, or in slices). */
  rows(path: SubPath, from: number, limit?: number): { rows: OutlineRow[]; total: number; loading: Loading } | null;
  /** The header alone (the final one once everything is read), with how many rows there are. */
  header(path: SubPath): { header: OutlineHeader; total: number; loading: Loading } | null;
  step(path: SubPath, index: number): StepAnswer | null;
  /** `partial`: the trajectory is still being read (the search covers the steps read so far). */
  search(path: SubPath, query: string): SearchResult & { ms: number; partial: boolean };
  raw(path: SubPath, index: number | null): string | null;
  subagent(path: SubPath, index: number): SubagentAnswer | null;
  problem(path: SubPath, index: number): { file: string; pointer: string } | null;
}

export const RAW_CAP = 2_000_000;

export const QUERY_METHODS: readonly (keyof TrajectoryQueries)[] = ['outline', 'rows', 'header', 'step', 'search', 'raw', 'subagent', 'problem'];

export class TrajectorySession implements TrajectoryQueries {
  private readonly searches = new Map<TrajectoryView, TrajectorySearch>();
  /** Progress while the top trajectory is read; null when done. */
  loading: Loading = { steps: 0, bytesRead: 0, bytesTotal: 0 };

  private constructor(public view: TrajectoryView, private readonly docs: Map<string, KeptDoc>, private readonly root: string, private readonly real?: RealPath) {}

  /**
   * Reads `file` (absolute POSIX path); media may load only from inside `root` (the trajectory's folder; `real`
   * resolves symbolic links, so a link pointing out of it is refused too). `onProgress` gets the session as soon as
   * the first steps are read, and again as more are; queries answer from what is read so far.
   */
  static async open(fs: TrajectoryFs, file: string, root: string, opts: { real?: RealPath; onProgress?: (s: TrajectorySession) => void | Promise<void> } = {}): Promise<TrajectorySession> {
    const docs = new Map<string, KeptDoc>();
    let session: TrajectorySession | null = null;
    const view = await loadTrajectory(fs, file, {}, docs, (v, p) => {
      session ??= new TrajectorySession(v, docs, root, opts.real);
      session.loading = p;
      session.searchOf(v).build();
      return opts.onProgress?.(session);
    });
    const s: TrajectorySession = session ?? new TrajectorySession(view, docs, root, opts.real);
    s.view = view;
    s.loading = null;
    return s;
  }

  private searchOf(v: TrajectoryView): TrajectorySearch {
    let s = this.searches.get(v);
    if (!s) { s = new TrajectorySearch(v); this.searches.set(v, s); }
    return s;
  }

  private at(path: SubPath): TrajectoryView | null {
    let v: TrajectoryView | null = this.view;
    for (const i of path) v = v?.subagents[i]?.view ?? null;
    return v;
  }

  outline(path: SubPath, limit?: number): { header: OutlineHeader; rows: OutlineRow[]; total: number; loading: Loading } | null {
    const v = this.at(path);
    return v ? { header: headerOf(v), rows: rowsOf(v, 0, limit), total: v.steps.length, loading: path.length ? null : this.loading } : null;
  }

  rows(path: SubPath, from: number, limit?: number): { rows: OutlineRow[]; total: number; loading: Loading } | null {
    const v = this.at(path);
    return v ? { rows: rowsOf(v, from, limit), total: v.steps.length, loading: path.length ? null : this.loading } : null;
  }

  header(path: SubPath): { header: OutlineHeader; total: number; loading: Loading } | null {
    const v = this.at(path);
    return v ? { header: headerOf(v), total: v.steps.length, loading: path.length ? null : this.loading } : null;
  }

  step(path: SubPath, index: number): StepAnswer | null {
    const v = this.at(path);
    const step = v?.steps[index];
    if (!v || !step) return null;
    const { media, refused } = stepMedia(v, step, this.root, this.real);
    return { step, media, refused, tokens: this.tokens(v, index) };
  }

  search(path: SubPath, query: string): SearchResult & { ms: number; partial: boolean } {
    const v = this.at(path);
    const t0 = performance.now();
    const partial = path.length === 0 && this.loading !== null;
    if (!v) return { query, total: 0, steps: [], ms: 0, partial };
    const r = this.searchOf(v).search(query);
    return { ...r, steps: r.steps.slice(0, 100_000), ms: performance.now() - t0, partial };
  }

  /**
   * A step's JSON as written, or (index null) the whole document's — the text as read when it is not JSON; capped at
   * RAW_CAP characters by the caller.
   */
  raw(path: SubPath, index: number | null): string | null {
    const v = this.at(path);
    if (!v) return null;
    if (index !== null) return v.steps[index] ? pretty(this.rawStep(v, index)) : null;
    const doc = this.docs.get(v.file);
    // A file that is not JSON: its text as read (the page shows it under the parse error's line and column).
    if (v.unreadable !== null) return doc?.text?.() || `(${v.unreadable})`;
    return doc === undefined ? '(not read)' : pretty(doc.at(v.pointer));
  }

  subagent(path: SubPath, index: number): SubagentAnswer | null {
    const sub = this.at(path)?.subagents[index];
    return sub ? { kind: sub.kind, ref: sub.ref, path: sub.path, agent: sub.agent, unresolved: sub.unresolved, hasView: sub.view !== null } : null;
  }

  problem(path: SubPath, index: number): { file: string; pointer: string } | null {
    const p = this.at(path)?.problems[index];
    return p ? { file: p.file, pointer: p.pointer } : null;
  }

  private rawStep(v: TrajectoryView, index: number): unknown {
    const step = v.steps[index];
    const file = v.files[step.file]?.path ?? v.file;
    return this.docs.get(file)?.at(step.pointer) ?? null;
  }

  private tokens(v: TrajectoryView, index: number): StepAnswer['tokens'] {
    if (!v.steps[index]?.logprobs) return null;
    const raw = this.rawStep(v, index);
    const m = isObj(raw) ? raw.metrics : undefined;
    if (!isObj(m) || !Array.isArray(m.logprobs)) return null;
    const logprobs = (m.logprobs as unknown[]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    const ids = Array.isArray(m.completion_token_ids) ? (m.completion_token_ids as unknown[]).map((x) => (typeof x === 'number' ? x : -1)) : null;
    return { ids, logprobs };
  }
}
