// One opened trajectory and the questions the trajectory editor asks of it, by index only: the outline of the
// trajectory or of a nested subagent (`path`: subagent indexes from the top), a step with its media paths and
// per-token logprobs, a search, a step's or the document's raw JSON, a subagent, a problem. vscode-free; it runs in
// a worker thread (worker.ts, through remote.ts) so a 100 MB trajectory never blocks the extension host.
import type { FsPort } from '../fs/port';
import { atPointer, isObj, pretty } from './json';
import { loadTrajectory } from './load';
import { stepMedia } from './media';
import { outlineOf, type OutlineHeader, type OutlineRow } from './outline';
import { TrajectorySearch, type SearchResult } from './search';
import type { StepView, SubagentRefKind, TrajectoryView } from './types';

/** Where in the nesting: subagent indexes from the top trajectory ([] = the top). */
export type SubPath = readonly number[];

export interface StepAnswer {
  step: StepView;
  /** Absolute paths of the step's media parts by key (see media.ts), null when not loadable. */
  media: Record<string, string | null>;
  tokens: { ids: number[] | null; logprobs: number[] } | null;
}

export interface SubagentAnswer {
  kind: SubagentRefKind; ref: string; path: string | null; agent: string | null; unresolved: string | null; hasView: boolean;
}

/** What the editor asks; every answer is plain data (structured-clone safe). */
export interface TrajectoryQueries {
  outline(path: SubPath): { header: OutlineHeader; rows: OutlineRow[] } | null;
  step(path: SubPath, index: number): StepAnswer | null;
  search(path: SubPath, query: string): SearchResult & { ms: number };
  raw(path: SubPath, index: number | null): string | null;
  subagent(path: SubPath, index: number): SubagentAnswer | null;
  problem(path: SubPath, index: number): { file: string; pointer: string } | null;
}

export const RAW_CAP = 2_000_000;

export class TrajectorySession implements TrajectoryQueries {
  private readonly searches = new Map<TrajectoryView, TrajectorySearch>();

  private constructor(readonly view: TrajectoryView, private readonly docs: Map<string, unknown>, private readonly root: string) {}

  /** Reads `file` (absolute POSIX path); media may load only from inside `root` (the trajectory's folder). */
  static async open(fs: Pick<FsPort, 'stat' | 'readFile'>, file: string, root: string): Promise<TrajectorySession> {
    const docs = new Map<string, unknown>();
    const view = await loadTrajectory(fs, file, {}, docs);
    return new TrajectorySession(view, docs, root);
  }

  private at(path: SubPath): TrajectoryView | null {
    let v: TrajectoryView | null = this.view;
    for (const i of path) v = v?.subagents[i]?.view ?? null;
    return v;
  }

  outline(path: SubPath): { header: OutlineHeader; rows: OutlineRow[] } | null {
    const v = this.at(path);
    return v ? outlineOf(v) : null;
  }

  step(path: SubPath, index: number): StepAnswer | null {
    const v = this.at(path);
    const step = v?.steps[index];
    if (!v || !step) return null;
    return { step, media: stepMedia(v, step, this.root), tokens: this.tokens(v, index) };
  }

  search(path: SubPath, query: string): SearchResult & { ms: number } {
    const v = this.at(path);
    const t0 = performance.now();
    if (!v) return { query, total: 0, steps: [], ms: 0 };
    let s = this.searches.get(v);
    if (!s) { s = new TrajectorySearch(v); this.searches.set(v, s); }
    const r = s.search(query);
    return { ...r, steps: r.steps.slice(0, 100_000), ms: performance.now() - t0 };
  }

  /** A step's JSON as written, or (index null) the whole document's; capped at RAW_CAP characters by the caller. */
  raw(path: SubPath, index: number | null): string | null {
    const v = this.at(path);
    if (!v) return null;
    if (index !== null) return v.steps[index] ? pretty(this.rawStep(v, index)) : null;
    const doc = this.docs.get(v.file);
    return doc === undefined ? `(${v.unreadable ?? 'not read'})` : pretty(v.pointer ? atPointer(doc, v.pointer) : doc);
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
    return atPointer(this.docs.get(file), step.pointer) ?? null;
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
