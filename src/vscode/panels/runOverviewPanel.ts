// The "Run Overview" webview panel (host side): one panel per run id (revealed when already open), a strict CSP
// with a crypto nonce, resources only from out/webview, a ready → init handshake, state re-sent when the panel is
// shown again, and an update whenever the store re-reads the run. Every message from the webview is validated
// (webview/protocol.ts) before it is acted on; ids it sends are looked up in the run, never trusted as paths.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import type { Run } from '../core/model';
import type { RunStore } from '../runStore';
import type { RunsTreeProvider } from '../tree/provider';
import type { TreeNode } from '../tree/nodes';
import { taskNode } from '../tree/nodes';
import { log } from '../log';
import { type HostMessage, type WebviewMessage, parseWebviewMessage } from '../../webview/protocol';
import { evidenceToOpen, findAttempt, overviewModel } from './overviewModel';

export const OVERVIEW_VIEW_TYPE = 'harborRuns.runOverview';

export interface OverviewDeps {
  extensionUri: vscode.Uri;
  store: RunStore;
  provider: RunsTreeProvider;
  view: vscode.TreeView<TreeNode>;
}

/** What tests observe: every valid message a panel received, by run id. */
export interface OverviewEvent { runId: string; message: WebviewMessage }

const panels = new Map<string, RunOverviewPanel>();
const eventListeners = new Set<(e: OverviewEvent) => void>();

export function onOverviewMessage(l: (e: OverviewEvent) => void): vscode.Disposable {
  eventListeners.add(l);
  return new vscode.Disposable(() => eventListeners.delete(l));
}

export function overviewPanelFor(runId: string): RunOverviewPanel | undefined {
  return panels.get(runId);
}

function webviewOptions(deps: OverviewDeps): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'out', 'webview')] };
}

/**
 * Restores the overviews that were open when the window reloaded: the webview's saved state names the run
 * (webview/runOverview.ts keeps it); the runs are loaded first so the panel can show it at once.
 */
export function registerOverviewSerializer(deps: OverviewDeps): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(OVERVIEW_VIEW_TYPE, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
      const runId = state && typeof state === 'object' ? (state as { runId?: unknown }).runId : undefined;
      if (typeof runId !== 'string' || !runId) { panel.dispose(); return; }
      await deps.store.ensureLoaded();
      RunOverviewPanel.revive(deps, panel, runId);
      log().info(`run overview: restored the panel of ${runId}`);
    },
  });
}

function nonce(): string {
  return crypto.randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

export class RunOverviewPanel implements vscode.Disposable {
  private readonly subs: vscode.Disposable[] = [];
  private ready = false;
  private disposed = false;

  /** Opens (or reveals) the overview of `run`. */
  static show(deps: OverviewDeps, run: Run): RunOverviewPanel {
    const open = panels.get(run.id);
    if (open) {
      open.panel.reveal(undefined, false);
      return open;
    }
    const panel = vscode.window.createWebviewPanel(OVERVIEW_VIEW_TYPE, `Overview: ${run.label}`, vscode.ViewColumn.Active, {
      ...webviewOptions(deps), retainContextWhenHidden: false,
    });
    const p = new RunOverviewPanel(deps, run.id, panel);
    panels.set(run.id, p);
    return p;
  }

  /**
   * A panel VS Code restored after a reload (the serializer below): it shows `runId` again. A run that is no longer
   * in the workspace gets the "gone" message from the handshake; a second panel of a run already open is closed.
   */
  static revive(deps: OverviewDeps, panel: vscode.WebviewPanel, runId: string): RunOverviewPanel | undefined {
    if (panels.has(runId)) { panel.dispose(); return undefined; }
    panel.webview.options = webviewOptions(deps);
    const p = new RunOverviewPanel(deps, runId, panel);
    panels.set(runId, p);
    const run = deps.store.get(runId);
    if (run) panel.title = `Overview: ${run.label}`;
    return p;
  }

  private constructor(private readonly deps: OverviewDeps, readonly runId: string, readonly panel: vscode.WebviewPanel) {
    // A light/dark pair of files: a ThemeIcon here needs VS Code 1.108, newer than engines.vscode.
    const icon = (theme: string) => vscode.Uri.joinPath(deps.extensionUri, 'media', `overview-${theme}.svg`);
    panel.iconPath = { light: icon('light'), dark: icon('dark') };
    panel.webview.html = this.html();
    this.subs.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((data: unknown) => { void this.receive(data); }),
      // With retainContextWhenHidden off, the page is rebuilt when shown again: it says `ready` and gets `init`;
      // sending the state here as well covers a page that was kept.
      panel.onDidChangeViewState((e) => { if (e.webviewPanel.visible && this.ready) this.sendInit(); }),
    );
    const sub = deps.store.onDidChange((e) => {
      if (e.runIds && !e.runIds.includes(this.runId)) return;
      const run = deps.store.get(this.runId);
      if (!run) { void this.post({ type: 'gone', runId: this.runId }); return; }
      panel.title = `Overview: ${run.label}`;
      if (this.ready && panel.visible) this.sendInit();
    });
    this.subs.push(new vscode.Disposable(() => sub.dispose()));
  }

  private html(): string {
    const w = this.panel.webview;
    const root = vscode.Uri.joinPath(this.deps.extensionUri, 'out', 'webview');
    const n = nonce();
    const csp = `default-src 'none'; img-src ${w.cspSource} data:; font-src ${w.cspSource}; style-src ${w.cspSource}; script-src 'nonce-${n}'`;
    const uri = (f: string) => w.asWebviewUri(vscode.Uri.joinPath(root, f)).toString();
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri('codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${uri('runOverview.css')}">
<title>Run Overview</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="loading">Loading run…</p></main>
<script nonce="${n}" src="${uri('runOverview.js')}"></script>
</body>
</html>`;
  }

  private post(m: HostMessage): Thenable<boolean> {
    if (this.disposed) return Promise.resolve(false);
    return this.panel.webview.postMessage(m);
  }

  private sendInit(): void {
    const run = this.deps.store.get(this.runId);
    if (!run) { void this.post({ type: 'gone', runId: this.runId }); return; }
    const model = overviewModel(run);
    void this.post({ type: 'init', model }).then((ok) => log().debug(`run overview: init sent (${model.tasks.length} tasks) → ${ok}`), (e) => log().warn(`run overview: init failed ${String(e)}`));
  }

  private async receive(data: unknown): Promise<void> {
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) {
      log().warn(`run overview: dropped an invalid message from the webview (${parsed.error})`);
      return;
    }
    const m = parsed.message;
    for (const l of eventListeners) {
      try { l({ runId: this.runId, message: m }); } catch { /* a listener's failure is its own */ }
    }
    switch (m.type) {
      case 'ready': this.ready = true; this.sendInit(); break;
      case 'openAttempt': await this.openAttempt(m.taskId, m.attemptId); break;
      case 'openProblem': await this.openProblem(m.index); break;
      case 'cspViolation': log().warn(`run overview: CSP violation ${m.directive} ${m.blocked}`); break;
      case 'error': log().warn(`run overview (webview): ${m.message}`); break;
      case 'rendered': break;
    }
  }

  /** Reveals the attempt in the Runs tree and opens its test-stdout (or first present evidence file) in a preview. */
  async openAttempt(taskId: string, attemptId: string): Promise<void> {
    const run = this.deps.store.get(this.runId);
    const hit = run && findAttempt(run, taskId, attemptId);
    if (!run || !hit) return;
    const { provider, view } = this.deps;
    try {
      const runNode = provider.nodeForRun(run);
      const kids = await provider.getChildren(runNode);
      const tNode = kids.find((k) => k.kind === 'task' && k.task.id === taskId) ?? taskNode(run, hit.task, runNode);
      const attemptNode = (await provider.getChildren(tNode)).find((k) => k.kind === 'attempt' && k.attempt.id === attemptId);
      if (attemptNode) await view.reveal(attemptNode, { select: true, focus: false, expand: false });
    } catch (e) {
      log().warn(`run overview: cannot reveal ${taskId} ${attemptId} in the tree: ${String(e)}`);
    }
    const file = evidenceToOpen(hit.attempt);
    if (file) {
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: true, preserveFocus: false, viewColumn: vscode.ViewColumn.Beside });
    } else {
      void vscode.window.showInformationMessage(`${hit.task.label || hit.task.id} ${hit.attempt.label} has no evidence file on disk.`);
    }
  }

  async openProblem(index: number): Promise<void> {
    const p = this.deps.store.get(this.runId)?.problems[index];
    if (!p) return;
    const uri = vscode.Uri.file(p.file);
    const st = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (!st) { void vscode.window.showWarningMessage(`${p.message} (${p.file} is not on disk)`); return; }
    if (st.type & vscode.FileType.Directory) { await vscode.commands.executeCommand('revealInExplorer', uri); return; }
    const line = Math.max(0, (p.line ?? 1) - 1);
    const col = Math.max(0, (p.column ?? 1) - 1);
    await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside, selection: new vscode.Range(line, col, line, col) });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    panels.delete(this.runId);
    for (const s of this.subs) s.dispose();
    this.panel.dispose();
  }
}

let extensionUri: vscode.Uri | undefined;

/** Called once from activate(): where out/webview is; disposing it closes every open overview. */
export function initRunOverview(uri: vscode.Uri): vscode.Disposable {
  extensionUri = uri;
  const seen: OverviewEvent[] = [];
  const record = onOverviewMessage((e) => { seen.push(e); if (seen.length > 200) seen.shift(); });
  // Internal (not contributed, so not in the palette): what the open overviews said, for the integration tests,
  // which run in their own bundle and cannot share this module's state.
  const cmd = vscode.commands.registerCommand('harborRuns._overviewState', (runId?: string) => ({
    open: [...panels.values()].map((p) => ({ runId: p.runId, title: p.panel.title, visible: p.panel.visible, viewType: p.panel.viewType })),
    messages: seen.filter((e) => runId === undefined || e.runId === runId),
  }));
  return vscode.Disposable.from(record, cmd, new vscode.Disposable(() => { for (const p of [...panels.values()]) p.dispose(); }));
}

export function overviewExtensionUri(): vscode.Uri {
  if (!extensionUri) throw new Error('the run overview was not initialised (initRunOverview)');
  return extensionUri;
}
