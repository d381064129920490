// The "Run Overview" webview panel (host side): one panel per run id (revealed when already open), a ready → init
// handshake, state re-sent when the panel is shown again, and an update whenever the store re-reads the run.
// Messages are validated (src/protocol/runOverview.ts) by PanelHost before they reach onMessage; ids the webview
// sends are looked up in the run, never trusted as paths.
import * as vscode from 'vscode';
import type { Run } from '../../core/model';
import { type TreeNode, taskNode } from '../../views/tree/nodes';
import { type HostMessage, type OverviewModel, type WebviewMessage, parseWebviewMessage } from '../../protocol/runOverview';
import { clipForWebview, evidenceToOpen, findAttempt, gridPart, overviewModel } from '../../views/runOverviewModel';
import { dashboardRows } from '../../core/dashboard';
import type { HostContext } from '../hostContext';
import { openProblem } from '../openProblem';
import { mayOpen } from '../openGuard';
import { openTrajectoryCommand } from '../commands/trajectoryCommands';
import { toDisposable } from '../../core/lifecycle';
import { DashboardHost } from './dashboardHost';
import { PanelHost, type PanelSpec } from './panelHost';

export const OVERVIEW_VIEW_TYPE = 'harborRuns.runOverview';

/**
 * The first screen is sent at once and small, whatever the run's size: the task table's first rows (the page asks
 * for the others in pages once it has painted, one page at a time, so neither side is ever busy for long), and the
 * task × attempt grid only for a run it is shown open for (else on request).
 */
const FIRST_ROWS = 150;
const PAGE_ROWS = 2500;
const GRID_EAGER_TASKS = 200;

const SPEC: PanelSpec<WebviewMessage> = {
  viewType: OVERVIEW_VIEW_TYPE,
  page: { entry: 'runOverview', early: 'runOverviewEarly', title: 'Run Overview', body: '<main id="app" aria-busy="true"><p class="loading">Loading run…</p></main>' },
  parse: parseWebviewMessage,
};

/**
 * Registers the panel's serializer: the overviews that were open when the window reloaded come back (the webview's
 * saved state names the run, see webview/runOverview/main.ts); the runs are loaded first so the panel shows it at once.
 */
export function registerRunOverview(ctx: HostContext): void {
  ctx.track(vscode.window.registerWebviewPanelSerializer(OVERVIEW_VIEW_TYPE, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
      const runId = state && typeof state === 'object' ? (state as { runId?: unknown }).runId : undefined;
      if (typeof runId !== 'string' || !runId) { panel.dispose(); return; }
      await ctx.store.ensureLoaded();
      RunOverviewPanel.revive(ctx, panel, runId);
      ctx.log.info(`run overview: restored the panel of ${runId}`);
    },
  }));
}

export class RunOverviewPanel extends PanelHost<HostMessage, WebviewMessage> {
  /** Training curves, reward details and copied tables: the dashboard's own messages. */
  private readonly dashboard: DashboardHost;
  /** The current init, and the run it was built from (pages are cut from the same run; a newer init ends them). */
  private generation = 0;
  private table: { run: Run; total: number } | undefined;
  /** The first screen built while the page loads (see the constructor), sent on `ready` when the run is still the same. */
  private prepared: { run: Run; model: OverviewModel; built: number } | undefined;

  /** Opens (or reveals) the overview of `run`. */
  static show(ctx: HostContext, run: Run): RunOverviewPanel {
    const open = ctx.panels.get(OVERVIEW_VIEW_TYPE, run.id);
    if (open instanceof RunOverviewPanel) {
      open.panel.reveal(undefined, false);
      return open;
    }
    return new RunOverviewPanel(ctx, run.id, PanelHost.createPanel(ctx, OVERVIEW_VIEW_TYPE, `Overview: ${run.label}`));
  }

  /**
   * A panel VS Code restored after a reload: it shows `runId` again. A run that is no longer in the workspace gets
   * the "gone" message from the handshake; a second panel of a run already open is closed.
   */
  static revive(ctx: HostContext, panel: vscode.WebviewPanel, runId: string): RunOverviewPanel | undefined {
    if (ctx.panels.get(OVERVIEW_VIEW_TYPE, runId)) { panel.dispose(); return undefined; }
    const p = new RunOverviewPanel(ctx, runId, panel);
    const run = ctx.store.get(runId);
    if (run) panel.title = `Overview: ${run.label}`;
    return p;
  }

  private constructor(ctx: HostContext, readonly runId: string, panel: vscode.WebviewPanel) {
    super(ctx, SPEC, runId, panel);
    this.dashboard = new DashboardHost(ctx.fs, (m) => this.post(m), (s) => ctx.log.info(s));
    // A light/dark pair of files: a ThemeIcon here needs VS Code 1.108, newer than engines.vscode.
    const icon = (theme: string) => vscode.Uri.joinPath(ctx.extensionUri, 'media', `overview-${theme}.svg`);
    panel.iconPath = { light: icon('light'), dark: icon('dark') };
    // With retainContextWhenHidden off, the page is rebuilt when shown again: it says `ready` and gets `init`;
    // sending the state here as well covers a page that was kept. Only on hidden → shown: a panel that merely lost
    // or got focus (an editor opened beside it) keeps its page, scroll and selection.
    let wasVisible = panel.visible;
    this.register(panel.onDidChangeViewState((e) => {
      const visible = e.webviewPanel.visible;
      if (visible && !wasVisible && this.ready) this.sendInit();
      wasVisible = visible;
    }));
    // The page takes a while to exist and run its script (on a loaded machine, most of a second), time in which the
    // host would idle until `ready`: the first screen is built meanwhile. In the next task, not now: the messages that
    // create the panel and set its page go out first.
    const prepare = setTimeout(() => this.prepare(), 0);
    this.register(toDisposable(() => clearTimeout(prepare)));
    this.register(ctx.store.onDidChange((e) => {
      if (e.runIds && !e.runIds.includes(this.runId)) return;
      const run = ctx.store.get(this.runId);
      if (!run) { void this.post({ type: 'gone', runId: this.runId }); return; }
      panel.title = `Overview: ${run.label}`;
      if (this.ready && panel.visible) this.sendInit();
    }));
  }

  private buildInit(run: Run): { run: Run; model: OverviewModel; built: number } {
    const t0 = Date.now();
    const model = overviewModel(run, { firstRows: FIRST_ROWS, deferGridAbove: GRID_EAGER_TASKS, generation: ++this.generation });
    return { run, model, built: Date.now() - t0 };
  }

  /** Builds the first screen before the page asks for it (nothing when it already has, or the run is gone). */
  private prepare(): void {
    const run = this.ctx.store.get(this.runId);
    if (this.ready || this.isDisposed || !run) return;
    this.prepared = this.buildInit(run);
  }

  private sendInit(): void {
    const run = this.ctx.store.get(this.runId);
    const prepared = this.prepared;
    this.prepared = undefined;
    if (!run) { void this.post({ type: 'gone', runId: this.runId }); return; }
    // The prepared first screen, when it is of the run as the store has it now and still the latest init.
    const { model, built } = prepared && prepared.run === run && prepared.model.generation === this.generation ? prepared : this.buildInit(run);
    const log = this.ctx.log;
    const d = model.dashboard;
    this.table = { run, total: model.dashboard?.rowsTotal ?? 0 };
    void this.post({ type: 'init', model }).then(
      (ok) => log.debug(`run overview: init sent (${d?.rows.length ?? 0} of ${d?.rowsTotal ?? 0} table rows, model built in ${built} ms) → ${ok}`),
      (e) => log.warn(`run overview: init failed ${String(e)}`));
    if (model.hasTraining) this.dashboard.sendTraining(run).catch((e) => log.warn(`run dashboard: training metrics not sent: ${String(e)}`));
  }

  /** The page of the task table's rows from `from`, of the current init (a page asked by an older one is not sent). */
  private async sendRows(generation: number, from: number): Promise<void> {
    const t = this.table;
    if (!t || generation !== this.generation || from >= t.total) return;
    const rows = clipForWebview(t.run, dashboardRows(t.run, from, Math.min(t.total, from + PAGE_ROWS)));
    await this.post({ type: 'rows', generation, from, rows, done: from + rows.length >= t.total });
  }

  private sendGrid(): void {
    const run = this.ctx.store.get(this.runId);
    if (run) void this.post({ type: 'grid', generation: this.generation, ...gridPart(run) });
  }

  protected async onMessage(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready': this.ready = true; this.sendInit(); break;
      case 'openAttempt': await this.openAttempt(m.taskId, m.attemptId, m.target); break;
      case 'openProblem': await this.openProblem(m.index); break;
      case 'grid': this.sendGrid(); break;
      case 'moreRows': await this.sendRows(m.generation, m.from); break;
      case 'cspViolation': this.ctx.log.warn(`run overview: CSP violation ${m.directive} ${m.blocked}`); break;
      case 'error': this.ctx.log.warn(`run overview (webview): ${m.message}`); break;
      case 'rendered': break;
      default:
        // A failure is PanelHost's to report (logged, shown, the page told), as every handler's.
        await this.dashboard.handle(this.ctx.store.get(this.runId), m);
    }
  }

  /**
   * Reveals the attempt in the Runs tree and opens its test-stdout (or first present evidence file) in a preview;
   * with target 'trajectory', its trajectory.json in the trajectory viewer when it has one.
   */
  async openAttempt(taskId: string, attemptId: string, target: 'evidence' | 'trajectory' = 'evidence'): Promise<void> {
    const run = this.ctx.store.get(this.runId);
    const hit = run && findAttempt(run, taskId, attemptId);
    if (!run || !hit) return;
    const { treeProvider: provider, treeView: view } = this.ctx;
    let attemptNode: TreeNode | undefined;
    try {
      const runNode = provider.nodeForRun(run);
      const found = await provider.childFor(runNode, (k) => k.kind === 'task' && k.task.id === hit.task.id);
      const tNode = found?.kind === 'task' ? found : taskNode(run, hit.task, runNode);
      attemptNode = await provider.childFor(tNode, (k) => k.kind === 'attempt' && k.attempt.id === hit.attempt.id);
      if (attemptNode) await view.reveal(attemptNode, { select: true, focus: false, expand: false });
    } catch (e) {
      this.ctx.log.warn(`run overview: cannot reveal ${taskId} ${attemptId} in the tree: ${String(e)}`);
    }
    // The trajectory command checks the file is inside the run before it opens it (mayOpen).
    if (attemptNode && target === 'trajectory' && hit.attempt.evidence.some((e) => e.kind === 'trajectory' && e.present)) {
      await openTrajectoryCommand(this.ctx, attemptNode);
      return;
    }
    const file = evidenceToOpen(hit.attempt);
    if (file && !(await mayOpen(this.ctx, file, run))) return;
    if (file) {
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: true, preserveFocus: false, viewColumn: vscode.ViewColumn.Beside });
    } else {
      void vscode.window.showInformationMessage(`${hit.task.label || hit.task.id} ${hit.attempt.label} has no evidence file on disk.`);
    }
  }

  async openProblem(index: number): Promise<void> {
    const run = this.ctx.store.get(this.runId);
    const p = run?.problems[index];
    if (p) await openProblem(this.ctx, p, vscode.ViewColumn.Beside, run);
  }
}
