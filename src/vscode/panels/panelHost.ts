// The host side every webview panel shares: the page (WebviewPanels.html), one panel per key (the registry in the
// host context), every message validated with the panel's protocol before it is acted on (an invalid one is logged
// and dropped) and handled under guardMessage (a handler that throws is logged, shown to the user and told to the
// page as `failed`: src/protocol/failed.ts), a `ready` flag for the page's handshake, and disposal with the panel. A panel subclasses it and
// implements `onMessage`; see src/vscode/panels/runOverviewPanel.ts.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../core/lifecycle';
import type { Parsed } from '../../protocol/parse';
import type { HostFailed } from '../../protocol/failed';
import { guardMessage, requestWords, type MessageFailure } from '../../views/messageGuard';
import { showError } from '../log';
import type { HostContext } from '../hostContext';
import type { OpenPanel, PanelPage } from './webviewPanels';

export interface PanelSpec<W> {
  viewType: string;
  /** The bundle (out/webview/<entry>.js / .css) and the page title. */
  page: PanelPage;
  /** The protocol's validator of webview → host messages. */
  parse: (data: unknown) => Parsed<W>;
}

export abstract class PanelHost<H, W extends { type: string }> extends Disposable implements OpenPanel {
  readonly viewType: string;
  /** The page said `ready` (its listener is installed). */
  protected ready = false;

  /** `extraRoots`: folders the page may load resources from besides out/webview (a custom editor's document folder). */
  protected constructor(protected readonly ctx: HostContext, private readonly spec: PanelSpec<W>, readonly key: string, readonly panel: vscode.WebviewPanel,
    extraRoots: readonly vscode.Uri[] = []) {
    super();
    this.viewType = spec.viewType;
    panel.webview.options = ctx.panels.webviewOptions(extraRoots);
    panel.webview.html = ctx.panels.html(panel.webview, spec.page);
    ctx.panels.add(this);
    this.register(toDisposable(() => ctx.panels.forget(this)));
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(panel.webview.onDidReceiveMessage((data: unknown) => { void this.receive(data); }));
  }

  /** A new panel in the active column, for `key` (the caller checked none is open: ctx.panels.get). */
  protected static createPanel(ctx: HostContext, viewType: string, title: string): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(viewType, title, vscode.ViewColumn.Active, {
      ...ctx.panels.webviewOptions(), retainContextWhenHidden: false,
    });
  }

  protected post(m: H): Thenable<boolean> {
    if (this.isDisposed) return Promise.resolve(false);
    return this.panel.webview.postMessage(m);
  }

  private async receive(data: unknown): Promise<void> {
    const parsed = this.spec.parse(data);
    if (!parsed.ok) {
      this.ctx.log.warn(`${this.viewType}: dropped an invalid message from the webview (${parsed.error})`);
      return;
    }
    this.ctx.panels.noteMessage({ viewType: this.viewType, key: this.key, message: parsed.message });
    const m = parsed.message;
    await guardMessage(m.type, () => this.onMessage(m), (f) => this.reportFailure(f));
  }

  /** Message types whose failure the user was shown (once per type and panel: the log has every one). */
  private readonly told = new Set<string>();

  /**
   * A handler failed: the log has it with its stack, the page is told (it stops waiting for an answer and says so),
   * and the user sees it once per kind of message, with "Show Log".
   */
  protected async reportFailure(f: MessageFailure): Promise<void> {
    const what = `${this.spec.page.title}: could not ${requestWords(f.request)}: ${f.message}`;
    this.ctx.panels.noteFailure({ viewType: this.viewType, key: this.key, request: f.request, message: f.message });
    const posted = this.isDisposed ? Promise.resolve(false) : Promise.resolve(this.panel.webview.postMessage({ type: 'failed', request: f.request, message: f.message } satisfies HostFailed));
    void posted.then(undefined, (e: unknown) => this.ctx.log.warn(`${this.viewType}: could not tell the page: ${String(e)}`));
    if (this.told.has(f.request)) {
      const detail = f.error instanceof Error ? f.error.stack ?? f.error.message : String(f.error);
      this.ctx.log.error(`${what}\n${detail}`);
      return;
    }
    this.told.add(f.request);
    // Not awaited: the notification stays until the user closes it, and the trajectory editor's outline queue (which
    // reports through here) must not wait for that. showError logs before it shows, and never rejects.
    void showError(this.ctx.log, what, f.error).then(undefined, () => undefined);
  }

  protected abstract onMessage(m: W): void | Promise<void>;

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this.panel.dispose();
  }
}
