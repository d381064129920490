// Every open webview panel of the extension, by view type and key (one panel per key: a run id, a file …), the
// HTML shell they share (strict CSP with a crypto nonce, resources only from out/webview) and one event with every
// valid message any panel received (what the integration tests observe through the host context).
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable, Emitter, type Event, type IDisposable, disposeAll } from '../../core/lifecycle';

export interface OpenPanel extends IDisposable {
  readonly viewType: string;
  readonly key: string;
  readonly panel: vscode.WebviewPanel;
}

/** What the tests see of an open panel. */
export interface PanelInfo {
  viewType: string;
  key: string;
  title: string;
  visible: boolean;
}

/** A message a panel received from its webview, after validation. */
export interface PanelMessage {
  viewType: string;
  key: string;
  message: { type: string };
}

/** A message a panel's handler failed on: its type and the error's message. */
export interface PanelFailure {
  viewType: string;
  key: string;
  request: string;
  message: string;
}

/** The bundle of a panel: out/webview/<entry>.js and out/webview/<entry>.css (webview/<entry>/main.ts and main.css). */
export interface PanelPage {
  entry: string;
  title: string;
  /**
   * A small script (out/webview/<early>.js, a file with the page's nonce like every script: none is inline) first in
   * the page's head, so it runs before the bundle is fetched and parsed: it can say `ready` while that loads.
   */
  early?: string;
  /** Body shown until the script renders (plain HTML, no script). */
  body?: string;
  /** Allows audio / video from the webview's resource roots (CSP media-src). */
  media?: boolean;
}

function nonce(): string {
  return crypto.randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class WebviewPanels extends Disposable {
  private readonly open = new Map<string, OpenPanel>();
  private readonly received = this.register(new Emitter<PanelMessage>());
  /** Every valid message any panel received. */
  readonly onDidReceiveMessage: Event<PanelMessage> = this.received.event;

  constructor(private readonly extensionUri: vscode.Uri) {
    super();
  }

  private static id(viewType: string, key: string): string {
    return `${viewType}\u0000${key}`;
  }

  get(viewType: string, key: string): OpenPanel | undefined {
    return this.open.get(WebviewPanels.id(viewType, key));
  }

  list(viewType?: string): PanelInfo[] {
    return [...this.open.values()].filter((p) => viewType === undefined || p.viewType === viewType)
      .map((p) => ({ viewType: p.viewType, key: p.key, title: p.panel.title, visible: p.panel.visible }));
  }

  /** Adds a panel; it is forgotten when it is disposed (call `forget`) and disposed with the registry. */
  add(p: OpenPanel): void {
    this.open.set(WebviewPanels.id(p.viewType, p.key), p);
  }

  forget(p: OpenPanel): void {
    const id = WebviewPanels.id(p.viewType, p.key);
    if (this.open.get(id) === p) this.open.delete(id);
  }

  noteMessage(m: PanelMessage): void {
    this.received.fire(m);
  }

  private readonly failures = this.register(new Emitter<PanelFailure>());
  /** Every message a panel could not handle (its handler threw; see PanelHost). */
  readonly onDidFailMessage: Event<PanelFailure> = this.failures.event;

  noteFailure(f: PanelFailure): void {
    this.failures.fire(f);
  }

  /** Where the webview bundles are. */
  get root(): vscode.Uri {
    return vscode.Uri.joinPath(this.extensionUri, 'out', 'webview');
  }

  /** Scripts on; resources only from out/webview and the `extraRoots` a panel adds (a trajectory's folder). */
  webviewOptions(extraRoots: readonly vscode.Uri[] = []): vscode.WebviewOptions {
    return { enableScripts: true, localResourceRoots: [this.root, ...extraRoots] };
  }

  /** The page of a panel: codicons, its CSS and script, nothing else allowed (nonce-based CSP). */
  html(webview: vscode.Webview, page: PanelPage): string {
    const n = nonce();
    const csp = `default-src 'none'; img-src ${webview.cspSource} data:; font-src ${webview.cspSource}; style-src ${webview.cspSource};${page.media ? ` media-src ${webview.cspSource};` : ''} script-src 'nonce-${n}'`;
    const uri = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.root, f)).toString();
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${page.early ? this.earlyScript(page.early, n, uri) : ''}<link rel="stylesheet" href="${uri('codicon.css')}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${uri(`${page.entry}.css`)}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
${page.body ?? ''}
<script nonce="${n}" src="${uri(`${page.entry}.js`)}"></script>
</body>
</html>`;
  }

  /** The early script's tag (its file, with the page's nonce). */
  private earlyScript(entry: string, n: string, uri: (f: string) => string): string {
    return `<script nonce="${n}" src="${uri(`${entry}.js`)}"></script>\n`;
  }

  override dispose(): void {
    const panels = [...this.open.values()];
    this.open.clear();
    disposeAll(panels);
    super.dispose();
  }
}
