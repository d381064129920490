// The "Compare Attempts" panel (host side): two attempts of a task, their trajectories aligned step by step
// (core/compare/align.ts) with the first divergence marked, and their verifier outputs in VS Code's diff editor on
// request. One panel per pair of attempts; messages validated by PanelHost (src/protocol/compareAttempts.ts).
import * as vscode from 'vscode';
import { alignTrajectories } from '../../core/compare';
import { loadTrajectory, type TrajectoryView } from '../../core/trajectory';
import type { Attempt, Run, Task } from '../../core/model';
import { type HostMessage, type WebviewMessage, parseWebviewMessage } from '../../protocol/compareAttempts';
import { type AttemptRef, compareAttemptsModel, resolveAttempt } from '../../views/compareModel';
import type { HostContext } from '../hostContext';
import { showVerifierDiff } from '../compareDocuments';
import { containment } from '../../core/containment';
import { mayOpen } from '../openGuard';
import { PanelHost, type PanelSpec } from './panelHost';
import { guardMessage } from '../../views/messageGuard';

export const COMPARE_ATTEMPTS_VIEW_TYPE = 'harborRuns.compareAttempts';

const SPEC: PanelSpec<WebviewMessage> = {
  viewType: COMPARE_ATTEMPTS_VIEW_TYPE,
  page: { entry: 'compareAttempts', title: 'Compare Attempts', body: '<main id="app" aria-busy="true"><p class="loading">Aligning trajectories…</p></main>' },
  parse: parseWebviewMessage,
};

interface Resolved { run: Run; task: Task; attempt: Attempt }

const title = (r: Resolved) => `${r.run.label} · ${r.attempt.label}`;

function trajectoryFile(a: Attempt): { path?: string; reason?: string } {
  const ev = a.evidence.find((e) => e.kind === 'trajectory' && !e.isDir);
  if (!ev) return { reason: 'no trajectory recorded for this attempt' };
  if (ev.outside) return { reason: `trajectory outside the run, not read: ${ev.path}` };
  if (!ev.present) return { reason: `trajectory missing: ${ev.path}` };
  return { path: ev.path };
}

export class CompareAttemptsPanel extends PanelHost<HostMessage, WebviewMessage> {
  static show(ctx: HostContext, left: AttemptRef, right: AttemptRef): CompareAttemptsPanel {
    const key = JSON.stringify([left, right]);
    const open = ctx.panels.get(COMPARE_ATTEMPTS_VIEW_TYPE, key);
    if (open instanceof CompareAttemptsPanel) { open.panel.reveal(undefined, false); return open; }
    const l = resolveAttempt((id) => ctx.store.get(id), left);
    const name = l ? `${l.task.label || l.task.id}` : 'attempts';
    return new CompareAttemptsPanel(ctx, key, left, right, PanelHost.createPanel(ctx, COMPARE_ATTEMPTS_VIEW_TYPE, `Compare: ${name}`));
  }

  private constructor(ctx: HostContext, key: string, private readonly left: AttemptRef, private readonly right: AttemptRef, panel: vscode.WebviewPanel) {
    super(ctx, SPEC, key, panel);
    this.register(panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.visible && this.ready) void guardMessage('ready', () => this.sendInit(), (f) => this.reportFailure(f));
    }));
  }

  private resolve(): [Resolved, Resolved] | undefined {
    const get = (id: string) => this.ctx.store.get(id);
    const l = resolveAttempt(get, this.left);
    const r = resolveAttempt(get, this.right);
    return l && r ? [l, r] : undefined;
  }

  private async load(r: Resolved): Promise<{ view: TrajectoryView | null; reason?: string }> {
    const f = trajectoryFile(r.attempt);
    if (!f.path) return { view: null, reason: f.reason };
    const c = await containment(this.ctx.fs, r.run.root, f.path);
    if (!c.inside) return { view: null, reason: `trajectory not read: ${c.reason}` };
    return { view: await loadTrajectory(this.ctx.fs, f.path) };
  }

  private async sendInit(): Promise<void> {
    const both = this.resolve();
    if (!both) { void this.post({ type: 'gone', message: 'One of the attempts is no longer in the workspace.' }); return; }
    const [l, r] = both;
    const t0 = Date.now();
    const [lv, rv] = await Promise.all([this.load(l), this.load(r)]);
    const al = alignTrajectories(lv.view, rv.view, { left: lv.reason, right: rv.reason });
    const model = compareAttemptsModel(l.task.label || l.task.id, { title: title(l), attempt: l.attempt }, { title: title(r), attempt: r.attempt }, al);
    this.ctx.log.debug(`compare attempts: ${al.rows.length} rows aligned in ${Date.now() - t0} ms (with loading)`);
    await this.post({ type: 'init', model });
  }

  protected async onMessage(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready': this.ready = true; await this.sendInit(); break;
      case 'diffVerifier': await this.diffVerifier(); break;
      case 'openTrajectory': {
        const both = this.resolve();
        const side = both && (m.side === 'left' ? both[0] : both[1]);
        const f = side && trajectoryFile(side.attempt).path;
        if (f && side && await mayOpen(this.ctx, f, side.run)) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(f), { preview: true, viewColumn: vscode.ViewColumn.Beside });
        break;
      }
      case 'cspViolation': this.ctx.log.warn(`compare attempts: CSP violation ${m.directive} ${m.blocked}`); break;
      case 'error': this.ctx.log.warn(`compare attempts (webview): ${m.message}`); break;
      case 'rendered': break;
    }
  }

  /** The two attempts' verifier outputs in the diff editor. */
  async diffVerifier(): Promise<[vscode.Uri, vscode.Uri] | undefined> {
    const both = this.resolve();
    if (!both) return undefined;
    const [l, r] = both;
    return showVerifierDiff(this.ctx, this.key, { title: title(l), run: l.run, attempt: l.attempt }, { title: title(r), run: r.run, attempt: r.attempt });
  }
}
