// The "Compare Runs" panel (host side): two or more runs side by side task by task (core/compare/runs.ts), regressions
// and improvements first, the merged view as a toggle; a cell reveals its attempt, a row opens Compare Attempts.
// One panel per ordered list of run ids; updated when the store re-reads one of them. Messages validated by
// PanelHost (src/protocol/compareRuns.ts); task ids and side numbers from the webview are looked up, never trusted.
import * as vscode from 'vscode';
import type { Run } from '../../core/model';
import type { CompareSide } from '../../core/compare';
import { type HostMessage, type WebviewMessage, parseWebviewMessage } from '../../protocol/compareRuns';
import { compareRunsModel, firstAttemptOf, resolveAttempt } from '../../views/compareModel';
import { evidenceToOpen } from '../../views/runOverviewModel';
import { taskNode } from '../../views/tree/nodes';
import type { HostContext } from '../hostContext';
import { CompareAttemptsPanel } from './compareAttemptsPanel';
import { mayOpen } from '../openGuard';
import { PanelHost, type PanelSpec } from './panelHost';

export const COMPARE_RUNS_VIEW_TYPE = 'harborRuns.compareRuns';

const SPEC: PanelSpec<WebviewMessage> = {
  viewType: COMPARE_RUNS_VIEW_TYPE,
  page: { entry: 'compareRuns', title: 'Compare Runs', body: '<main id="app" aria-busy="true"><p class="loading">Comparing runs…</p></main>' },
  parse: parseWebviewMessage,
};

export class CompareRunsPanel extends PanelHost<HostMessage, WebviewMessage> {
  private merge = false;
  private sides: CompareSide[] = [];

  static show(ctx: HostContext, runs: readonly Run[], merge = false): CompareRunsPanel {
    const ids = runs.map((r) => r.id);
    const key = ids.join('\n');
    const open = ctx.panels.get(COMPARE_RUNS_VIEW_TYPE, key);
    if (open instanceof CompareRunsPanel) { open.panel.reveal(undefined, false); return open; }
    const p = new CompareRunsPanel(ctx, key, ids, PanelHost.createPanel(ctx, COMPARE_RUNS_VIEW_TYPE, runs.length === 1 ? `Compare cells: ${runs[0].label}` : `Compare: ${runs.length} runs`));
    p.merge = merge;
    return p;
  }

  private constructor(ctx: HostContext, key: string, private readonly runIds: string[], panel: vscode.WebviewPanel) {
    super(ctx, SPEC, key, panel);
    this.register(panel.onDidChangeViewState((e) => { if (e.webviewPanel.visible && this.ready) this.sendInit(); }));
    this.register(ctx.store.onDidChange((e) => {
      if (e.runIds && !e.runIds.some((id) => this.runIds.includes(id))) return;
      if (this.ready && panel.visible) this.sendInit();
    }));
  }

  private sendInit(): void {
    const runs: Run[] = [];
    for (const id of this.runIds) {
      const r = this.ctx.store.get(id);
      if (!r) { void this.post({ type: 'gone', runId: id }); return; }
      runs.push(r);
    }
    const { model, sides } = compareRunsModel(runs, this.merge);
    this.sides = sides;
    void this.post({ type: 'init', model });
  }

  protected async onMessage(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready': this.ready = true; this.sendInit(); break;
      case 'setMerge': this.merge = m.merge; this.sendInit(); break;
      case 'openCell': await this.openCell(m.taskId, m.side); break;
      case 'compareAttempts': {
        const l = firstAttemptOf(this.sides[m.left], m.taskId);
        const r = firstAttemptOf(this.sides[m.right], m.taskId);
        if (l && r) CompareAttemptsPanel.show(this.ctx, l, r);
        break;
      }
      case 'cspViolation': this.ctx.log.warn(`compare runs: CSP violation ${m.directive} ${m.blocked}`); break;
      case 'error': this.ctx.log.warn(`compare runs (webview): ${m.message}`); break;
      case 'rendered': break;
    }
  }

  /** Reveals the task's first attempt on that side in the Runs tree and opens its test-stdout (or first evidence file). */
  private async openCell(taskId: string, side: number): Promise<void> {
    const ref = firstAttemptOf(this.sides[side], taskId);
    const hit = ref && resolveAttempt((id) => this.ctx.store.get(id), ref);
    if (!hit) return;
    const { treeProvider: provider, treeView: view } = this.ctx;
    try {
      const runNode = provider.nodeForRun(hit.run);
      const found = await provider.childFor(runNode, (k) => k.kind === 'task' && k.task.id === hit.task.id);
      const tNode = found?.kind === 'task' ? found : taskNode(hit.run, hit.task, runNode);
      const aNode = await provider.childFor(tNode, (k) => k.kind === 'attempt' && k.attempt.id === hit.attempt.id);
      if (aNode) await view.reveal(aNode, { select: true, focus: false, expand: false });
    } catch (e) {
      this.ctx.log.warn(`compare runs: cannot reveal ${taskId} in the tree: ${String(e)}`);
    }
    const file = evidenceToOpen(hit.attempt);
    if (file && await mayOpen(this.ctx, file, hit.run)) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }
}
