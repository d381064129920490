// Activation: cheap. It wires the store, the Runs tree, decorations, diagnostics, watchers and commands; nothing
// is scanned until the Runs view asks for its first children or a command needs the runs.
import * as vscode from 'vscode';
import { RunStore, type StoreFolder } from './runStore';
import { VscodeFs } from './vscodeFs';
import { RunsTreeProvider, VIEW_ID } from './tree/provider';
import type { TreeNode } from './tree/nodes';
import { FlagDecorationProvider } from './decorations';
import { RewriteSummaryActions, RunDiagnostics } from './diagnostics';
import { RunWatchers } from './watchers';
import { registerCommands } from './commands';
import { disposeLog, log } from './log';
import { onSettingsChanged, readSettings } from './settings';
import { describeFilter, isFilterActive, restoreViewState, storeViewState } from './tree/viewState';
import { countRun } from './core/model';
import { initRunOverview, registerOverviewSerializer } from './webviews/runOverviewPanel';

/** What activate() returns: used by the integration tests (test/integration/README.md). */
export interface HarborRunsApi {
  store: RunStore;
  treeProvider: RunsTreeProvider;
  treeView: vscode.TreeView<TreeNode>;
  /** Children of a tree node (the root when undefined), as the view gets them. */
  getChildren(node?: TreeNode): Promise<TreeNode[]>;
  /** The TreeItem VS Code renders for a node, with its tooltip resolved. */
  getTreeItem(node: TreeNode): vscode.TreeItem;
  /** Re-discovers and re-reads every run, then waits until the views are up to date. */
  refresh(): Promise<void>;
  /** Resolves when no file change is pending and the diagnostics are current. */
  whenIdle(): Promise<void>;
}

/** The workspace memento key of the Runs tree's filter and sort. */
const VIEW_STATE_KEY = 'harborRuns.viewState';

function workspaceFolders(): StoreFolder[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ path: f.uri.fsPath, name: f.name }));
}

export function activate(context: vscode.ExtensionContext): HarborRunsApi {
  const fs = new VscodeFs();
  const store = new RunStore({
    fs,
    folders: workspaceFolders,
    filters: () => { const s = readSettings(); return { include: s.include, exclude: s.exclude }; },
    log: (level, message) => log()[level](message),
  });
  const provider = new RunsTreeProvider(store, fs);
  // Filter and sort are the workspace's: restored on activation, saved on every change.
  provider.setState(restoreViewState(context.workspaceState.get(VIEW_STATE_KEY)));
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const diagnostics = new RunDiagnostics(store, fs);
  const watchers = new RunWatchers(store);

  const updateFilterUi = () => {
    const s = provider.state;
    view.message = describeFilter(s);
    void vscode.commands.executeCommand('setContext', 'harborRuns.filterActive', isFilterActive(s));
  };
  let watching = false;

  context.subscriptions.push(
    store, provider, view, diagnostics, watchers,
    vscode.window.registerFileDecorationProvider(new FlagDecorationProvider()),
    vscode.languages.registerCodeActionsProvider(
      [{ scheme: 'file', pattern: '**/*_run_summary.json' }], new RewriteSummaryActions(store), { providedCodeActionKinds: RewriteSummaryActions.kinds }),
    initRunOverview(context.extensionUri), ...registerCommands({ store, provider, view, fs, diagnostics }),
    registerOverviewSerializer({ extensionUri: context.extensionUri, store, provider, view }),
    provider.onDidChangeState(updateFilterUi),
    provider.onDidChangeState((st) => { void context.workspaceState.update(VIEW_STATE_KEY, storeViewState(st)); }),
    // Watch only once runs were loaded (the view was shown or a command ran).
    store.onDidChange(() => {
      if (!watching && store.isLoaded) { watching = true; watchers.update(); }
    }),
    store.onRunCompleted(({ run }) => {
      if (!readSettings().notifyOnCompletion) return;
      const c = countRun(run);
      const text = `Run ${run.state === 'complete' ? 'complete' : 'ended'}: ${run.label} — ${c.passed}/${c.measured} passed, ${c.total} attempts.`;
      void vscode.window.showInformationMessage(text, 'Show in Runs', "Don't Show Again").then(async (pick) => {
        if (pick === 'Show in Runs') await view.reveal(provider.nodeForRun(run), { select: true, focus: true, expand: true });
        else if (pick === "Don't Show Again") await vscode.workspace.getConfiguration('harborRuns').update('notifyOnCompletion', false, vscode.ConfigurationTarget.Global);
      });
    }),
    // Opening a summary is asking about runs: load them so its Problems entries appear without the view.
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!store.isLoaded && doc.uri.scheme === 'file' && doc.uri.path.endsWith('_run_summary.json')) void store.ensureLoaded();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      if (store.isLoaded) void store.reload();
      if (watching) watchers.update();
    }),
    onSettingsChanged((key) => {
      if ((key === 'include' || key === 'exclude') && store.isLoaded) void store.reload();
      if (key === 'autoRefresh' && watching) watchers.update();
    }),
  );
  updateFilterUi();
  log().info('Harbor Runs activated');

  return {
    store,
    treeProvider: provider,
    treeView: view,
    getChildren: (node) => provider.getChildren(node),
    getTreeItem: (node) => provider.resolveTreeItem(provider.getTreeItem(node), node),
    refresh: async () => { await store.reload(); await store.whenIdle(); await diagnostics.schedule(); },
    whenIdle: async () => { await store.whenIdle(); await diagnostics.schedule(); },
  };
}

export function deactivate(): void {
  disposeLog();
}
