// The ONE host context of the extension (rust-analyzer's editors/code ctx.ts is the model): it owns the extension
// URI, the log, the file system port, the run store, the Runs tree (provider + view), diagnostics, watchers and the
// open webview panels; it registers every command and panel, and it is what activate() returns to the tests.
// Activation stays cheap: nothing is scanned until the Runs view asks for its first children or a command needs runs.
import * as vscode from 'vscode';
import { Disposable, Emitter, type IDisposable } from '../core/lifecycle';
import { countRun } from '../core/model';
import { RunStore, type StoreFolder } from '../views/runStore';
import type { TreeNode } from '../views/tree/nodes';
import { describeFilter, isFilterActive, restoreViewState, storeViewState } from '../views/tree/viewState';
import { registerCommands } from './commands';
import { FlagDecorationProvider } from './decorations';
import { RewriteSummaryActions, RunDiagnostics } from './diagnostics';
import { type Log, createLog, showError } from './log';
import { registerRunOverview } from './panels/runOverviewPanel';
import { registerTrajectoryEditor } from './editors/trajectoryEditor';
import { registerDeepLinks } from './deepLinks';
import { registerCompareDocuments } from './compareDocuments';
import { type PanelFailure, type PanelInfo, type PanelMessage, WebviewPanels } from './panels/webviewPanels';
import { onSettingsChanged, readSettings } from './settings';
import { RunsTreeProvider, VIEW_ID } from './treeProvider';
import { VscodeFs } from './vscodeFs';
import type { OpenRefusal } from './openGuard';
import { RunWatchers } from './watchers';
import { plural } from '../core/format';

/** A command handler: the host context, and the argument VS Code passes (a tree node, a Uri, a string …). */
export type CommandHandler = (ctx: HostContext, arg?: unknown, ...rest: unknown[]) => unknown;

/** What the integration tests use (test/integration/README.md); the host context is it. */
export interface HarborRunsApi {
  readonly store: RunStore;
  readonly treeProvider: RunsTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  /** Children of a tree node (the root when undefined), as the view gets them. */
  getChildren(node?: TreeNode): Promise<TreeNode[]>;
  /** The TreeItem VS Code renders for a node, with its tooltip resolved. */
  getTreeItem(node: TreeNode): vscode.TreeItem;
  /** Re-discovers and re-reads every run, then waits until the views are up to date. */
  refresh(): Promise<void>;
  /** Resolves when no file change is pending and the diagnostics are current. */
  whenIdle(): Promise<void>;
  /** The open webview panels and trajectory editors (view type, key — a trajectory editor's is its file's path —, title, visible). */
  openPanels(viewType?: string): PanelInfo[];
  /** Every valid message a webview panel received from its page. */
  readonly onDidReceivePanelMessage: vscode.Event<PanelMessage>;
  /** A message a webview panel could not handle (its handler threw: logged, shown, and the page told). */
  readonly onDidFailPanelMessage: vscode.Event<PanelFailure>;
  /** A path a run names that was not opened because it leaves the run (src/vscode/openGuard.ts). */
  readonly onDidRefuseOpen: vscode.Event<OpenRefusal>;
}

/** The workspace memento key of the Runs tree's filter and sort. */
const VIEW_STATE_KEY = 'harborRuns.viewState';

function workspaceFolders(): StoreFolder[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ path: f.uri.fsPath, name: f.name }));
}

export class HostContext extends Disposable implements HarborRunsApi {
  readonly extensionUri: vscode.Uri;
  readonly workspaceState: vscode.Memento;
  readonly log: Log;
  readonly fs: VscodeFs;
  readonly store: RunStore;
  readonly treeProvider: RunsTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly diagnostics: RunDiagnostics;
  readonly watchers: RunWatchers;
  readonly panels: WebviewPanels;
  private watching = false;
  private readonly refusals = this.register(new Emitter<OpenRefusal>());
  readonly onDidRefuseOpen = this.refusals.event;

  /** Creates the context, registers everything, and ties its life to the extension's. */
  static activate(context: vscode.ExtensionContext): HostContext {
    const ctx = new HostContext(context);
    context.subscriptions.push(ctx);
    ctx.registerAll();
    ctx.log.info('Harbor Runs activated');
    return ctx;
  }

  /** harborRuns.maxFileSizeMB as it is now (the file system port asks it at each read). */
  private maxFileSizeMB: number;

  private constructor(context: vscode.ExtensionContext) {
    super();
    this.extensionUri = context.extensionUri;
    this.workspaceState = context.workspaceState;
    this.log = this.register(createLog());
    this.maxFileSizeMB = readSettings().maxFileSizeMB;
    this.fs = new VscodeFs(() => this.maxFileSizeMB);
    this.store = this.register(new RunStore({
      fs: this.fs,
      folders: workspaceFolders,
      filters: () => { const s = readSettings(); return { include: s.include, exclude: s.exclude, maxDirs: s.maxFolders }; },
      log: (level, message) => this.log[level](message),
    }));
    this.treeProvider = this.register(new RunsTreeProvider(this.store, this.fs));
    // Filter and sort are the workspace's: restored on activation, saved on every change.
    this.treeProvider.setState(restoreViewState(this.workspaceState.get(VIEW_STATE_KEY)));
    this.treeView = this.register(vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.treeProvider, showCollapseAll: true, canSelectMany: true }));
    this.diagnostics = this.register(new RunDiagnostics(this.store, this.fs));
    this.watchers = this.register(new RunWatchers(this.store));
    this.panels = this.register(new WebviewPanels(this.extensionUri));
  }

  /** Ties a disposable to the extension's life. */
  track<T extends IDisposable>(d: T): T {
    return this.register(d);
  }

  /** Registers a command; a failure is logged and shown with "Show Log". */
  registerCommand(id: string, handler: CommandHandler): void {
    this.register(vscode.commands.registerCommand(id, async (arg?: unknown, ...rest: unknown[]) => {
      try {
        return await handler(this, arg, ...rest);
      } catch (e) {
        await showError(this.log, `${id} failed: ${(e as Error)?.message ?? String(e)}`, e);
        return undefined;
      }
    }));
  }

  private registerAll(): void {
    registerCommands(this);
    registerRunOverview(this);
    registerTrajectoryEditor(this);
    registerDeepLinks(this);
    registerCompareDocuments(this);
    this.register(vscode.window.registerFileDecorationProvider(new FlagDecorationProvider()));
    this.register(vscode.languages.registerCodeActionsProvider(
      [{ scheme: 'file', pattern: '**/*_run_summary.json' }], new RewriteSummaryActions(this.store), { providedCodeActionKinds: RewriteSummaryActions.kinds }));
    this.register(this.treeProvider.onDidChangeState(() => this.updateFilterUi()));
    this.register(this.treeProvider.onDidChangeState((st) => { void this.workspaceState.update(VIEW_STATE_KEY, storeViewState(st)); }));
    // Watch only once runs were loaded (the view was shown or a command ran).
    this.register(this.store.onDidChange(() => {
      if (!this.watching && this.store.isLoaded) { this.watching = true; this.watchers.update(); }
    }));
    this.register(this.store.onRunCompleted(({ run }) => {
      if (!readSettings().notifyOnCompletion) return;
      const c = countRun(run);
      const text = `Run ${run.state === 'complete' ? 'complete' : 'ended'}: ${run.label} — ${c.passed}/${c.measured} passed, ${plural(c.total, 'attempt')}.`;
      void vscode.window.showInformationMessage(text, 'Show in Runs', "Don't Show Again").then(async (pick) => {
        if (pick === 'Show in Runs') await this.treeView.reveal(this.treeProvider.nodeForRun(run), { select: true, focus: true, expand: true });
        else if (pick === "Don't Show Again") await vscode.workspace.getConfiguration('harborRuns').update('notifyOnCompletion', false, vscode.ConfigurationTarget.Global);
      });
    }));
    // Opening a summary is asking about runs: load them so its Problems entries appear without the view.
    this.register(vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!this.store.isLoaded && doc.uri.scheme === 'file' && doc.uri.path.endsWith('_run_summary.json')) void this.store.ensureLoaded();
    }));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => {
      if (this.store.isLoaded) void this.store.reload();
      if (this.watching) this.watchers.update();
    }));
    this.register(onSettingsChanged((key) => {
      if (key === 'maxFileSizeMB') this.maxFileSizeMB = readSettings().maxFileSizeMB;
      if ((key === 'include' || key === 'exclude' || key === 'maxFolders' || key === 'maxFileSizeMB') && this.store.isLoaded) void this.store.reload();
      if (key === 'autoRefresh' && this.watching) this.watchers.update();
    }));
    this.updateFilterUi();
  }

  private updateFilterUi(): void {
    const s = this.treeProvider.state;
    this.treeView.message = describeFilter(s);
    void vscode.commands.executeCommand('setContext', 'harborRuns.filterActive', isFilterActive(s));
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    // Tests ask for the whole first level: the runs once read, not the "Reading…" rows of the first load.
    if (!node) await this.store.ensureLoaded();
    return this.treeProvider.getChildren(node);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return this.treeProvider.resolveTreeItem(this.treeProvider.getTreeItem(node), node);
  }

  async refresh(): Promise<void> {
    await this.store.reload();
    await this.whenIdle();
  }

  async whenIdle(): Promise<void> {
    await this.store.whenIdle();
    await this.diagnostics.schedule();
  }

  openPanels(viewType?: string): PanelInfo[] {
    return this.panels.list(viewType);
  }

  get onDidReceivePanelMessage(): vscode.Event<PanelMessage> {
    return this.panels.onDidReceiveMessage;
  }

  get onDidFailPanelMessage(): vscode.Event<PanelFailure> {
    return this.panels.onDidFailMessage;
  }

  /** Reports a path not opened because it leaves its run (openGuard.ts). */
  noteRefusal(r: OpenRefusal): void {
    this.refusals.fire(r);
  }
}
