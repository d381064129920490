// The Runs tree's TreeDataProvider: adapts the pure nodes (nodes.ts / describe.ts) to VS Code tree items.
// Discovery happens lazily on the first getChildren (activation stays cheap); tooltips are built on hover.
import * as vscode from 'vscode';
import type { Run } from '../core/model';
import type { RunStore } from '../views/runStore';
import {
  FIRST_PAGE, MORE_PAGE, type MoreNode, type RunNode, type TaskNode, type TreeNode, childrenOf, makeRunNode, refusalOf, rootChildren, runNodeId, runOfNode,
} from '../views/tree/nodes';
import { containment } from '../core/containment';
import { runPlaces } from '../views/tree/runPlaces';
import { type ItemSpec, describe } from '../views/tree/describe';
import { tooltipOf } from '../views/tree/tooltips';
import { type ViewState, defaultViewState, runVisible } from '../views/tree/viewState';
import { flagUri } from './decorations';
import type { FsPort } from '../core/fs/port';
import { Disposable, Emitter } from '../core/lifecycle';
import { startupMark } from './startupTimes';

export const VIEW_ID = 'harborRuns.runs';

/** Node kinds that tooltipOf() describes (lazily, in resolveTreeItem). */
const HAS_TOOLTIP: ReadonlySet<TreeNode['kind']> = new Set<TreeNode['kind']>([
  'run', 'task', 'attempt', 'evidence', 'failed-test', 'entry', 'run-file', 'problem', 'reason', 'missing-path',
]);

const COLLAPSE: Record<ItemSpec['collapsible'], vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

export class RunsTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly emitter = this.register(new Emitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly runNodes = new Map<string, RunNode>();
  private stateValue: ViewState = defaultViewState();
  private progressShown = false;
  /** How many tasks of a run (attempts of a task) are listed, by node id, past the first page ("Show more"). */
  private readonly shown = new Map<string, number>();
  private readonly limitOf = (n: RunNode | TaskNode): number => this.shown.get(n.id) ?? FIRST_PAGE;
  private readonly stateEmitter = this.register(new Emitter<ViewState>());
  readonly onDidChangeState = this.stateEmitter.event;

  constructor(private readonly store: RunStore, private readonly fs: FsPort) {
    super();
    this.register(store.onDidChange((e) => {
      if (e.runIds && e.runIds.every((id) => this.runNodes.has(id))) {
        for (const id of e.runIds) {
          const node = this.runNodes.get(id)!;
          const run = store.get(id);
          if (run) node.run = run;
          this.emitter.fire(node);
        }
      } else {
        this.emitter.fire(undefined);
      }
    }));
    // A run being read got further: its "Reading …" row says how far (the first level only; cheap).
    this.register(store.onDidProgress(() => this.emitter.fire(undefined)));
  }

  get state(): ViewState {
    return this.stateValue;
  }

  /** A new filter or sort lists every run's tasks from the first page again. */
  setState(patch: Partial<ViewState>): void {
    this.stateValue = { ...this.stateValue, ...patch };
    this.shown.clear();
    this.stateEmitter.fire(this.stateValue);
    this.emitter.fire(undefined);
  }

  /** The cached node of a run (the same object across refreshes, so it can be revealed and refreshed alone). */
  runNode(run: Run, parent?: TreeNode, where?: string): RunNode {
    const id = runNodeId(run);
    let node = this.runNodes.get(run.id);
    if (!node || node.id !== id) {
      node = makeRunNode(run, parent, where);
      this.runNodes.set(run.id, node);
    } else {
      node.run = run;
      node.parent = parent;
      if (where === undefined) delete node.where; else node.where = where;
    }
    return node;
  }

  /** The run's node with its parent set as the tree shows it (a folder node in a multi-root workspace). */
  nodeForRun(run: Run): RunNode {
    const byFolder = this.store.byFolder().filter((f) => f.runs.length > 0);
    const f = byFolder.length > 1 ? byFolder.find((x) => x.runs.some((r) => r.id === run.id)) : undefined;
    const parent: TreeNode | undefined = f ? { kind: 'folder', id: `folder:${f.folder}`, folder: f.folder, name: f.name } : undefined;
    const list = f ?? byFolder[0];
    return this.runNode(run, parent, list ? runPlaces(list.runs, list.folder).get(run.id) : undefined);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      const asked = performance.now();
      if (!this.store.isLoaded && !this.progressShown) {
        // The first load: a progress bar on the view while runs are read; each run's row comes in as it is read.
        this.progressShown = true;
        void vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () => this.store.ensureLoaded().catch(() => undefined));
      }
      await this.store.whenDiscovered();
      const byFolder = this.store.byFolder();
      const live = new Set(this.store.runs().map((r) => r.id));
      for (const id of [...this.runNodes.keys()]) if (!live.has(id)) this.runNodes.delete(id);
      const pending = this.store.pendingRuns().map((p) => ({ folder: p.folder, anchor: p.candidate.anchor, progress: p.progress }));
      void vscode.commands.executeCommand('setContext', 'harborRuns.noRuns', live.size === 0 && pending.length === 0);
      const children = rootChildren(byFolder, this.stateValue, (r, p, where) => this.runNode(r, p, where), this.store.discoveryNotes(), pending);
      startupMark('tree first level', ` (${live.size} runs; asked → answered ${(performance.now() - asked).toFixed(1)} ms)`);
      return children;
    }
    if (node.kind === 'folder') {
      const f = this.store.byFolder().find((x) => x.folder === node.folder);
      const places = runPlaces(f?.runs ?? [], node.folder);
      return (f?.runs ?? []).filter((r) => runVisible(r, this.stateValue)).map((r) => this.runNode(r, node, places.get(r.id)));
    }
    const kids = await childrenOf(node, { state: this.stateValue, listDir: (p) => this.fs.readDir(p), limitOf: this.limitOf });
    await this.markRefused(kids);
    return kids;
  }

  /** "Show more" clicked: MORE_PAGE more of the parent's tasks or attempts are listed. */
  showMore(more: MoreNode): void {
    this.shown.set(more.parent.id, more.shown + MORE_PAGE);
    this.emitter.fire(more.parent);
  }

  /**
   * The child of a run or task `match` finds, listed (the page extended to it if it lay past the rows shown, so it
   * can be revealed); undefined when no child matches (or the filter hides it).
   */
  async childFor(parent: RunNode | TaskNode, match: (n: TreeNode) => boolean): Promise<TreeNode | undefined> {
    const all = await childrenOf(parent, { state: this.stateValue, listDir: (p) => this.fs.readDir(p) });
    const at = all.findIndex(match);
    if (at < 0) return undefined;
    if (at >= this.limitOf(parent)) {
      this.shown.set(parent.id, Math.ceil((at + 1) / MORE_PAGE) * MORE_PAGE);
      this.emitter.fire(parent);
    }
    return (await this.getChildren(parent)).find(match);
  }

  /**
   * Marks the evidence, entries and run files whose path is a link resolving outside their run's folder as refused
   * (core/containment.ts; realpath through the FsPort, a few calls per expanded node): they show why and never open.
   */
  private async markRefused(kids: TreeNode[]): Promise<void> {
    await Promise.all(kids.map(async (k) => {
      if (k.kind !== 'evidence' && k.kind !== 'entry' && k.kind !== 'run-file') return;
      const p = k.kind === 'evidence' ? (k.evidence.present ? k.evidence.path : undefined)
        : k.kind === 'entry' ? k.path : k.file.present ? k.file.path ?? undefined : undefined;
      const run = runOfNode(k);
      if (!p || !run || refusalOf(k) !== undefined) return;
      const c = await containment(this.fs, run.root, p);
      if (!c.inside) k.refused = c.reason;
    }));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const item = toTreeItem(describe(node), node);
    // VS Code asks resolveTreeItem for the (Markdown) tooltip only when it is undefined here; the nodes without
    // one get their label, so an item with a resourceUri does not show the URI instead.
    if (!HAS_TOOLTIP.has(node.kind)) item.tooltip = item.label as string;
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    const md = tooltipOf(node);
    if (md !== undefined) {
      // The text is a run's (escaped by tooltipOf): no command links, no HTML, no $(icon) syntax, whatever it says.
      const s = new vscode.MarkdownString(md, false);
      s.isTrusted = false;
      s.supportHtml = false;
      item.tooltip = s;
    }
    return item;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

}

export function toTreeItem(spec: ItemSpec, node?: TreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(spec.label, COLLAPSE[spec.collapsible]);
  item.id = spec.id;
  item.description = spec.description;
  item.contextValue = spec.contextValue;
  if (spec.flag) {
    item.resourceUri = flagUri(spec.id, spec.flag);
  } else if (spec.path && (spec.icon === 'file' || spec.icon === 'folder')) {
    item.resourceUri = vscode.Uri.file(spec.path);
  }
  if (spec.icon === 'file') item.iconPath = vscode.ThemeIcon.File;
  else if (spec.icon === 'folder') item.iconPath = vscode.ThemeIcon.Folder;
  else if (spec.icon) item.iconPath = new vscode.ThemeIcon(spec.icon.id, spec.icon.color ? new vscode.ThemeColor(spec.icon.color) : undefined);
  if (spec.click === 'open' && spec.path && node?.kind === 'evidence' && node.evidence.kind === 'trajectory') {
    // The trajectory viewer, with the attempt's task, outcome, reward and links in its header.
    item.command = { command: 'harborRuns.openTrajectory', title: 'Open in Trajectory Viewer', arguments: [node] };
  } else if (spec.click === 'open' && spec.path) {
    // The node, not only its path: openItem contains the path in the node's run before it opens anything.
    item.command = { command: 'harborRuns.openItem', title: 'Open', arguments: [node ?? spec.path] };
  } else if (spec.click === 'explain-missing' || spec.click === 'explain-refused') {
    item.command = { command: 'harborRuns.explainMissing', title: spec.click === 'explain-refused' ? 'Why is this not opened?' : 'Why is this missing?', arguments: [node] };
  } else if (spec.click === 'show-more') {
    item.command = { command: 'harborRuns.showMore', title: 'Show More', arguments: [node] };
  } else if (spec.click === 'open-problem') {
    item.command = { command: 'harborRuns.openProblem', title: 'Go to problem', arguments: [node] };
  }
  return item;
}

export function isTreeNode(x: unknown): x is TreeNode {
  return typeof x === 'object' && x !== null && typeof (x as { kind?: unknown }).kind === 'string' && typeof (x as { id?: unknown }).id === 'string';
}
