// The Runs tree's nodes and how each one's children are computed (vscode-free: benched under plain Node).
// Ids are stable across refreshes (built from Run / Task / Attempt ids and paths) so expansion survives a reload.
import type { Attempt, Evidence, NamedReason, Problem, Run, RunFile, Task } from '../../core/model';
import type { EntryType } from '../../core/fs/port';
import { formatCount, plural } from '../../core/format';
import { relativeInside } from '../../core/paths';
import { runPlaces } from './runPlaces';
import { type ViewState, attemptVisible, isFilterActive, runVisible, visibleTasks } from './viewState';

interface Base { id: string; parent?: TreeNode }

export interface FolderNode extends Base { kind: 'folder'; folder: string; name: string }
/** `where`: the run's folder inside the workspace folder, when another run there has the same label (runPlaces.ts). */
export interface RunNode extends Base { kind: 'run'; run: Run; where?: string }
export interface TaskNode extends Base { kind: 'task'; run: Run; task: Task }
export interface AttemptNode extends Base { kind: 'attempt'; run: Run; task: Task; attempt: Attempt }
/**
 * `refused` (evidence, entries, run files): why the item is not opened although its text is inside the run — a link
 * resolving outside the run's folder, found when its parent was expanded (treeProvider). A path whose text leaves the
 * run is flagged by the readers (`outside` on the Evidence / RunFile) and refused the same way.
 */
export interface EvidenceNode extends Base { kind: 'evidence'; run: Run; attempt?: Attempt; evidence: Evidence; refused?: string }
export interface FailedTestNode extends Base { kind: 'failed-test'; name: string; message?: string; file: string }
export interface EntryNode extends Base { kind: 'entry'; path: string; name: string; isDir: boolean; refused?: string }
export interface FilesGroupNode extends Base { kind: 'files'; run: Run }
export interface RunFileNode extends Base { kind: 'run-file'; run: Run; file: RunFile; refused?: string }
export interface ProblemsGroupNode extends Base { kind: 'problems'; run: Run }
export interface ProblemNode extends Base { kind: 'problem'; run: Run; problem: Problem }
export interface ReasonNode extends Base { kind: 'reason'; run: Run; reason: NamedReason; which: 'unvalidated' | 'skipped' }
export interface MissingPathNode extends Base { kind: 'missing-path'; run: Run; attempt: Attempt; path: string }
export interface MessageNode extends Base { kind: 'message'; text: string; icon?: string; description?: string }
/** "Show more": a run's tasks or a task's attempts past the ones shown (`shown` of `total`); a click shows more. */
export interface MoreNode extends Base { kind: 'more'; parent: RunNode | TaskNode; shown: number; total: number; what: 'tasks' | 'attempts' }

export type TreeNode =
  | FolderNode | RunNode | TaskNode | AttemptNode | EvidenceNode | FailedTestNode | EntryNode
  | FilesGroupNode | RunFileNode | ProblemsGroupNode | ProblemNode | ReasonNode | MissingPathNode | MessageNode | MoreNode;

/** Lists a folder for browsable evidence (artifacts/, verifier logs); [] when it is not there. */
export type ListDir = (path: string) => Promise<[string, EntryType][]>;

export interface ChildContext {
  state: ViewState;
  listDir: ListDir;
  /** How many of a run's tasks or a task's attempts to list (then a "Show more" row); all when not said. */
  limitOf?: (parent: RunNode | TaskNode) => number;
}

/**
 * A run's tasks and a task's attempts are listed this many at first: the tree gets (and VS Code serialises, sends
 * and lays out) a page, not 2,500 rows, when a big run is expanded. Each "Show more" adds MORE_PAGE.
 */
export const FIRST_PAGE = 200;
export const MORE_PAGE = 1000;

function moreNode(parent: RunNode | TaskNode, shown: number, total: number, what: MoreNode['what']): MoreNode {
  return { kind: 'more', id: `${parent.id}\u0000more`, parent, shown, total, what };
}

export function runNodeId(run: Run): string {
  return `run:${run.id}`;
}

export function makeRunNode(run: Run, parent?: TreeNode, where?: string): RunNode {
  return { kind: 'run', id: runNodeId(run), run, parent, ...(where === undefined ? {} : { where }) };
}

export function taskNode(run: Run, task: Task, parent: TreeNode): TaskNode {
  return { kind: 'task', id: `${runNodeId(run)}\u0000t:${task.id}`, run, task, parent };
}

function attemptNode(n: TaskNode, attempt: Attempt): AttemptNode {
  return { kind: 'attempt', id: `${runNodeId(n.run)}\u0000a:${attempt.id}`, run: n.run, task: n.task, attempt, parent: n };
}

/**
 * Children of a run: its tasks (filtered, sorted; the first `limit`, then a "Show more" row), then "Run files", then
 * "Problems" when there are any.
 */
export function runChildren(n: RunNode, state: ViewState, limit = Number.POSITIVE_INFINITY): TreeNode[] {
  const run = n.run;
  const tasks = visibleTasks(run, state);
  const shown = Math.min(tasks.length, limit);
  const out: TreeNode[] = new Array(shown);
  for (let i = 0; i < shown; i++) out[i] = taskNode(run, tasks[i], n);
  if (shown < tasks.length) out.push(moreNode(n, shown, tasks.length, 'tasks'));
  if (tasks.length === 0 && run.tasks.length > 0 && isFilterActive(state)) {
    out.push({ kind: 'message', id: `${n.id}\u0000msg:filtered`, text: `No task matches the filter (${run.tasks.length} hidden)`, parent: n });
  }
  if (run.files.some((f) => f.path !== null)) out.push({ kind: 'files', id: `${n.id}\u0000files`, run, parent: n });
  if (problemCount(run) > 0) out.push({ kind: 'problems', id: `${n.id}\u0000problems`, run, parent: n });
  return out;
}

/** The run a node belongs to (entries and failed tests through their parents). */
export function runOfNode(n: TreeNode | undefined): Run | undefined {
  for (let x = n; x; x = x.parent) if ('run' in x) return x.run;
  return undefined;
}

/** Why a node's path is not opened, or undefined: outside the run by its text (the readers' flag) or by its link. */
export function refusalOf(n: TreeNode): string | undefined {
  const root = runOfNode(n)?.root ?? '';
  switch (n.kind) {
    case 'evidence': return n.refused ?? (n.evidence.outside ? `${n.evidence.path} is outside the run's folder ${root}` : undefined);
    case 'run-file': return n.refused ?? (n.file.outside ? `${n.file.path ?? n.file.label} is outside the run's folder ${root}` : undefined);
    case 'entry': return n.refused;
    default: return undefined;
  }
}

export function problemCount(run: Run): number {
  return run.problems.length + run.unvalidated.length + run.skipped.length;
}

function evidenceNode(run: Run, attempt: Attempt | undefined, ev: Evidence, parent: TreeNode): EvidenceNode {
  return { kind: 'evidence', id: `${parent.id}\u0000e:${ev.kind}:${ev.path}`, run, attempt, evidence: ev, parent };
}

export function attemptChildren(n: AttemptNode): TreeNode[] {
  const a = n.attempt;
  const out: TreeNode[] = a.evidence.map((ev) => evidenceNode(n.run, a, ev, n));
  const covered = new Set(a.evidence.map((e) => e.path));
  for (const p of a.missing) {
    if (covered.has(p)) continue;
    covered.add(p);
    out.push({ kind: 'missing-path', id: `${n.id}\u0000m:${p}`, run: n.run, attempt: a, path: p, parent: n });
  }
  return out;
}

async function listEntries(path: string, parent: TreeNode, listDir: ListDir, skip?: ReadonlySet<string>): Promise<TreeNode[]> {
  const entries = await listDir(path);
  entries.sort((x, y) => (x[1] === 'dir' ? 0 : 1) - (y[1] === 'dir' ? 0 : 1) || x[0].localeCompare(y[0]));
  const out: TreeNode[] = [];
  for (const [name, type] of entries) {
    const p = path.endsWith('/') ? path + name : `${path}/${name}`;
    if (skip?.has(p)) continue;
    out.push({ kind: 'entry', id: `${parent.id}\u0000f:${name}`, path: p, name, isDir: type === 'dir', parent });
  }
  return out;
}

/** Children of any node; folder listings are read lazily, only when that node is expanded. */
export function childrenOf(n: TreeNode, ctx: ChildContext): TreeNode[] | Promise<TreeNode[]> {
  switch (n.kind) {
    case 'run': return runChildren(n, ctx.state, ctx.limitOf?.(n));
    case 'task': {
      const limit = ctx.limitOf?.(n) ?? Number.POSITIVE_INFINITY;
      const out: TreeNode[] = [];
      let visible = 0;
      for (const a of n.task.attempts) {
        if (!attemptVisible(a, ctx.state)) continue;
        if (visible++ < limit) out.push(attemptNode(n, a));
      }
      if (visible > out.length) out.push(moreNode(n, out.length, visible, 'attempts'));
      return out;
    }
    case 'attempt': return attemptChildren(n);
    case 'evidence': {
      const ev = n.evidence;
      const nested = (ev.children ?? []).map((c) => evidenceNode(n.run, n.attempt, c, n));
      const tests: TreeNode[] = (ev.failedTests ?? []).map((t, i) => ({
        kind: 'failed-test', id: `${n.id}\u0000ft:${i}:${t.name}`, name: t.name, message: t.message, file: ev.path, parent: n,
      }));
      if (!ev.isDir || !ev.present) return [...nested, ...tests];
      const skip = new Set((ev.children ?? []).map((c) => c.path));
      return listEntries(ev.path, n, ctx.listDir, skip).then((entries) => [...nested, ...tests, ...entries]);
    }
    case 'entry': return n.isDir ? listEntries(n.path, n, ctx.listDir) : [];
    case 'files':
      return n.run.files.filter((f) => f.path !== null)
        .map((f): RunFileNode => ({ kind: 'run-file', id: `${n.id}:${f.key}`, run: n.run, file: f, parent: n }));
    case 'run-file':
      return n.file.isDir && n.file.present && n.file.path ? listEntries(n.file.path, n, ctx.listDir) : [];
    case 'problems': {
      const run = n.run;
      const out: TreeNode[] = run.problems.map((p, i): ProblemNode => ({ kind: 'problem', id: `${n.id}:p${i}:${p.code}:${p.file}`, run, problem: p, parent: n }));
      for (const r of run.unvalidated) out.push({ kind: 'reason', id: `${n.id}:u:${r.taskId}`, run, reason: r, which: 'unvalidated', parent: n });
      for (const r of run.skipped) out.push({ kind: 'reason', id: `${n.id}:s:${r.taskId}`, run, reason: r, which: 'skipped', parent: n });
      return out;
    }
    default: return [];
  }
}

/** Root children: runs (or, in a multi-root workspace with runs in several folders, one node per folder). */
export function rootChildren(
  byFolder: { folder: string; name: string; runs: Run[] }[],
  state: ViewState,
  runNodeFor: (run: Run, parent?: TreeNode, where?: string) => RunNode,
  notes: { folder: string; name: string; notes: string[] }[] = [],
  pending: { folder: string; anchor: string; progress?: { done: number; total: number } }[] = [],
): TreeNode[] {
  // What discovery did not look at (links not followed, the folder cap), after the runs: said, never silent.
  const said: TreeNode[] = notes.flatMap((f) => f.notes.map((text, i): MessageNode => ({
    kind: 'message', id: `note:${f.folder}:${i}`, text: byFolder.length > 1 ? `${f.name}: ${text}` : text, icon: 'info',
  })));
  // Runs found and still being read (the first load): one row each, saying how far its read is, gone as it comes in.
  const reading: TreeNode[] = pending.map((p): MessageNode => ({
    kind: 'message', id: `reading:${p.anchor}`, text: `Reading ${relativeInside(p.folder, p.anchor)}…`, icon: 'loading~spin',
    ...(p.progress ? { description: readingProgress(p.progress) } : {}),
  }));
  const withRuns = byFolder.filter((f) => f.runs.length > 0);
  if (withRuns.length > 1) return [...withRuns.map((f): FolderNode => ({ kind: 'folder', id: `folder:${f.folder}`, folder: f.folder, name: f.name })), ...reading, ...said];
  const runs = withRuns.length === 1 ? withRuns[0].runs : [];
  const places = withRuns.length === 1 ? runPlaces(runs, withRuns[0].folder) : new Map<string, string>();
  return [...runs.filter((r) => runVisible(r, state)).map((r) => runNodeFor(r, undefined, places.get(r.id))), ...reading, ...said];
}

/** "2,560 of 10,000 trial folders (26%)": how far a run's first read is. */
export function readingProgress(p: { done: number; total: number }): string {
  const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 0;
  return `${formatCount(p.done)} of ${plural(p.total, 'trial folder', undefined, formatCount)} (${pct}%)`;
}
