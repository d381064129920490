// The trajectory editor (host side): a CustomReadonlyEditorProvider for ATIF trajectory.json files. Each document's
// view model (src/core/trajectory) is built and kept in a worker thread (core/trajectory/worker.ts, so a 100 MB file
// never blocks the extension host) and the editor answers the webview (webview/trajectory/main.ts) by index:
// a step, a search, a step's raw JSON, a subagent — never a path the webview chose, so the page can only reach files
// the trajectory names. Each editor is a PanelHost (page, CSP and message validation of src/vscode/panels/), listed
// in ctx.panels under its view type and the file's path; local resources only from out/webview and the file's folder.
import * as fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { basename, dirname } from '../../core/paths';
import { DeferredTrajectory, LocalTrajectory, RemoteTrajectory, type TrajectorySource } from '../../core/trajectory/remote';
import { RAW_CAP, TrajectorySession } from '../../core/trajectory/session';
import { JsonLocator } from '../../core/jsonLocator';
import { formatDeepLink } from '../../views/deepLink';
import { parseTrajectoryWebviewMessage, ViewStateSchema, type TrajectoryHostMessage, type TrajectoryViewState, type TrajectoryWebviewMessage } from '../../protocol/trajectory';
import type { HostContext } from '../hostContext';
import { showError } from '../log';
import { PanelHost, type PanelSpec } from '../panels/panelHost';
import { guardMessage } from '../../views/messageGuard';

/** The default editor of agent and verifier-folder trajectories (package.json `customEditors`). */
export const TRAJECTORY_VIEW_TYPE = 'harborRuns.trajectory';
/** The same editor as an "Open With…" option for any JSON file. */
export const TRAJECTORY_ANY_VIEW_TYPE = 'harborRuns.trajectory.any';

/** The attempt a trajectory was opened from (the Runs tree), shown in its header with links. */
export interface AttemptContext {
  run: string; task: string; attempt: string; outcome: string; reward: number | null;
  testStdout?: string; verifierDir?: string;
}

function spec(viewType: string): PanelSpec<TrajectoryWebviewMessage> {
  return {
    viewType,
    page: { entry: 'trajectory', early: 'trajectoryEarly', title: 'Trajectory', body: '<main id="app" aria-busy="true"><p class="loading">Loading trajectory…</p></main>', media: true },
    parse: parseTrajectoryWebviewMessage,
  };
}

class TrajectoryDoc implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri, readonly source: TrajectorySource) {}
  dispose(): void { this.source.dispose(); }
}

/** What the tree or a link passed for a file (by path): the attempt it belongs to, the step to show first. */
interface Pending {
  readonly attempts: Map<string, AttemptContext>;
  readonly focus: Map<string, number>;
}

class TrajectoryEditorProvider implements vscode.CustomReadonlyEditorProvider<TrajectoryDoc> {
  constructor(private readonly ctx: HostContext, private readonly viewType: string, readonly pending: Pending) {}

  /** Resolves at once: the worker reads while the editor's page loads, and the page's queries wait for the first page. */
  openCustomDocument(uri: vscode.Uri): TrajectoryDoc {
    this.opened.set(uri.fsPath, Date.now());
    return new TrajectoryDoc(uri, new DeferredTrajectory(this.open(uri.fsPath)));
  }

  /** When each document was opened (the log says how long after it its editor got its page). */
  private readonly opened = new Map<string, number>();

  private async open(file: string): Promise<TrajectorySource> {
    const t0 = Date.now();
    const workerFile = vscode.Uri.joinPath(this.ctx.extensionUri, 'out', 'trajectoryWorker.js').fsPath;
    // How long this thread (the extension host) is kept from its event loop while the trajectory loads.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let source: TrajectorySource;
    try {
      source = await RemoteTrajectory.open(workerFile, file, dirname(file));
    } catch (e) {
      // No worker (or it died): read on this thread rather than show nothing.
      this.ctx.log.warn(`trajectory: worker failed for ${file} (${(e as Error).message}); reading it on the extension host`);
      const t1 = Date.now();
      try {
        source = new LocalTrajectory(await TrajectorySession.open(this.ctx.fs, file, dirname(file), { real: realPath }), Date.now() - t1);
      } catch (e2) {
        delay.disable();
        void showError(this.ctx.log, `Could not read the trajectory ${file}`, e2);
        throw e2;
      }
    }
    const kind = source instanceof RemoteTrajectory ? 'worker' : 'host';
    this.ctx.log.info(`trajectory: ${file} first page in ${Date.now() - t0} ms (${kind}: ${source.status.ms.toFixed(0)} ms; ${source.status.steps} steps so far)`);
    void source.done.then(() => {
      delay.disable();
      const st = source.status;
      this.ctx.log.info(`trajectory: ${file} read in ${Date.now() - t0} ms (${kind}: ${st.ms.toFixed(0)} ms; ${st.steps} steps, ${st.problems} problems); longest extension-host event-loop delay while loading ${(delay.max / 1e6).toFixed(0)} ms`);
    });
    return source;
  }

  resolveCustomEditor(doc: TrajectoryDoc, panel: vscode.WebviewPanel): void {
    new TrajectoryEditor(this.ctx, this.pending, spec(this.viewType), doc, panel);
    const t0 = this.opened.get(doc.uri.fsPath);
    this.opened.delete(doc.uri.fsPath);
    if (t0 !== undefined) this.ctx.log.info(`trajectory: ${doc.uri.fsPath} page set ${Date.now() - t0} ms after opening`);
  }
}

/** The real path of a file (links resolved), or null: media behind a link out of the trajectory's folder is refused. */
function realPath(p: string): string | null {
  try { return fs.realpathSync.native(p); } catch { return null; }
}

const pendingOf = new WeakMap<HostContext, Pending>();

/** Registers the trajectory editor (default and "any JSON" view types). Called from HostContext.registerAll. */
export function registerTrajectoryEditor(ctx: HostContext): void {
  const options = { webviewOptions: { retainContextWhenHidden: true }, supportsMultipleEditorsPerDocument: true };
  const pending: Pending = { attempts: new Map(), focus: new Map() };
  const main = new TrajectoryEditorProvider(ctx, TRAJECTORY_VIEW_TYPE, pending);
  const any = new TrajectoryEditorProvider(ctx, TRAJECTORY_ANY_VIEW_TYPE, pending);
  pendingOf.set(ctx, pending);
  ctx.track(vscode.window.registerCustomEditorProvider(TRAJECTORY_VIEW_TYPE, main, options));
  ctx.track(vscode.window.registerCustomEditorProvider(TRAJECTORY_ANY_VIEW_TYPE, any, options));
}

/** The open trajectory editor of `uri` (either view type), if any. */
function openEditor(ctx: HostContext, uri: vscode.Uri): TrajectoryEditor | undefined {
  for (const vt of [TRAJECTORY_VIEW_TYPE, TRAJECTORY_ANY_VIEW_TYPE]) {
    const e = ctx.panels.get(vt, uri.fsPath);
    if (e instanceof TrajectoryEditor) return e;
  }
  return undefined;
}

/** Opens `uri` in the trajectory editor, optionally at a step (0-based) and with the attempt it belongs to. */
export async function openTrajectory(ctx: HostContext, uri: vscode.Uri, opts: { step?: number | null; attempt?: AttemptContext } = {}): Promise<void> {
  const pending = pendingOf.get(ctx);
  if (!pending) throw new Error('the trajectory editor is not registered');
  if (opts.attempt) pending.attempts.set(uri.fsPath, opts.attempt);
  const open = openEditor(ctx, uri);
  if (open) {
    if (opts.attempt) open.refresh();
    if (typeof opts.step === 'number') open.focus(opts.step);
    open.panel.reveal();
    return;
  }
  if (typeof opts.step === 'number') pending.focus.set(uri.fsPath, opts.step);
  // An explicit view type opens any file, whether or not the default selector covers it.
  await vscode.commands.executeCommand('vscode.openWith', uri, TRAJECTORY_VIEW_TYPE, { preview: false });
}

/** Workspace-state key of the editors' view states: { [document URI]: { state, at } }, the most recent VIEW_STATES_KEPT. */
const VIEW_STATES_KEY = 'harborRuns.trajectoryViewStates';
const VIEW_STATES_KEPT = 200;
type ViewStates = Record<string, { state: TrajectoryViewState; at: number }>;

/** The view state last reported for `uri`'s editor (it survives a window reload and closing the editor), or null. */
function viewStateOf(ctx: HostContext, uri: vscode.Uri): TrajectoryViewState | null {
  const all = ctx.workspaceState.get<ViewStates>(VIEW_STATES_KEY);
  const r = all && typeof all === 'object' ? ViewStateSchema.safeParse(all[uri.toString()]?.state) : null;
  return r?.success ? r.data : null;
}

function keepViewState(ctx: HostContext, uri: vscode.Uri, state: TrajectoryViewState): Thenable<void> {
  const all = { ...(ctx.workspaceState.get<ViewStates>(VIEW_STATES_KEY) ?? {}) };
  all[uri.toString()] = { state, at: Date.now() };
  const keys = Object.keys(all);
  if (keys.length > VIEW_STATES_KEPT) for (const k of keys.sort((x, y) => all[x].at - all[y].at).slice(0, keys.length - VIEW_STATES_KEPT)) delete all[k];
  return ctx.workspaceState.update(VIEW_STATES_KEY, all);
}

/**
 * Outline rows per message after the first (FIRST_SCREEN_ROWS), as they are read. Posting a
 * message costs the extension host in proportion to its size (VS Code serializes it twice and compresses it for the
 * workbench's connection): 1,000 rows (~220 kB) held the host's thread 100-150 ms on a loaded machine, so slices
 * are small and the host's event loop runs between them.
 */
const OUTLINE_SLICE = 250;
/**
 * Rows in the first message (`init`): a screen shows a few dozen, and the page validates every row it is sent before
 * it draws (the same jitless zod check of 1,000 rows took 110-180 ms in Node on a loaded machine); the rest follow
 * in slices.
 */
const FIRST_SCREEN_ROWS = 100;

/** Lets the extension host's event loop run (timers, other extensions' messages) before the next slice is posted. */
const breather = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function keyFor(ctx: HostContext, viewType: string, file: string): string {
  if (!ctx.panels.get(viewType, file)) return file;
  for (let n = 2; ; n++) if (!ctx.panels.get(viewType, `${file}#${n}`)) return `${file}#${n}`;
}

class TrajectoryEditor extends PanelHost<TrajectoryHostMessage, TrajectoryWebviewMessage> {
  /** Nested subagent views (embedded ones open in place) by their subagent path; the last is shown. */
  private stack: { path: number[]; label: string }[];

  /** Rows of the top trajectory the page has (it is sent more as they are read). */
  private sentRows = 0;
  /** Messages about the outline go out one after another (init, then rows and the final header, in order). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: HostContext, private readonly pending: Pending, s: PanelSpec<TrajectoryWebviewMessage>,
    private readonly doc: TrajectoryDoc, panel: vscode.WebviewPanel) {
    const root = vscode.Uri.joinPath(doc.uri, '..');
    super(ctx, s, keyFor(ctx, s.viewType, doc.uri.fsPath), panel, [root]);
    this.stack = [{ path: [], label: basename(doc.uri.fsPath) }];
    this.register(doc.source.onProgress((st) => { if (this.ready && this.stack.length === 1) this.enqueue(() => this.sendMore(st.loading === null)); }));
  }

  /** `request`: the page's message the work answers ('outline' for rows sent as they are read), named if it fails. */
  private enqueue(f: () => Promise<void>, request = 'outline'): void {
    this.queue = this.queue.then(() => guardMessage(request, f, (failure) => this.reportFailure(failure)));
  }

  /**
   * Rows read since the page was last sent some, in slices of OUTLINE_SLICE (each its own query and message, so
   * neither side handles a 10,000-row payload at once); when everything is read, the final header too.
   */
  private async sendMore(done: boolean): Promise<void> {
    if (this.stack.length !== 1) return;
    for (;;) {
      const more = await this.doc.source.ask('rows', [], this.sentRows, OUTLINE_SLICE);
      if (!more || this.stack.length !== 1) return;
      if (!more.rows.length) break;
      const from = this.sentRows;
      this.sentRows += more.rows.length;
      void this.post({ type: 'rows', from, rows: more.rows, loading: more.loading, more: Math.max(0, more.total - this.sentRows) });
      if (this.sentRows >= more.total) break;
      await breather();
    }
    if (!done) return;
    const h = await this.doc.source.ask('header', []);
    if (!h || this.stack.length !== 1) return;
    // The file turned out not to be what its first steps said (not JSON after all): the page starts again.
    if (h.total < this.sentRows) { await this.sendInit(null); return; }
    void this.post({ type: 'header', header: h.header, loading: null });
  }

  private get path(): number[] { return this.stack[this.stack.length - 1].path; }

  focus(step: number): void {
    if (!this.ready) { this.pending.focus.set(this.doc.uri.fsPath, step); return; }
    if (this.stack.length > 1) { this.stack = this.stack.slice(0, 1); this.enqueue(() => this.sendInit(step)); return; }
    void this.post({ type: 'focus', index: step });
  }

  /** Sends the header again (the attempt it was opened from changed). */
  refresh(): void { if (this.ready) this.enqueue(() => this.sendInit(null)); }

  private async sendInit(focus: number | null, view: TrajectoryViewState | null = null): Promise<void> {
    const top = this.stack.length === 1;
    const outline = await this.doc.source.ask('outline', this.path, top ? FIRST_SCREEN_ROWS : undefined);
    if (!outline) return;
    const { header, rows, loading, total } = outline;
    if (top) this.sentRows = rows.length;
    const ctx = top ? this.pending.attempts.get(this.doc.uri.fsPath) : undefined;
    const attempt = ctx ? {
      run: ctx.run, task: ctx.task, attempt: ctx.attempt, outcome: ctx.outcome, reward: ctx.reward,
      links: [...(ctx.testStdout ? [{ id: 'testStdout' as const, label: 'test-stdout.txt' }] : []), ...(ctx.verifierDir ? [{ id: 'verifier' as const, label: 'Verifier folder' }] : [])],
    } : null;
    void this.post({
      type: 'init', header, rows, attempt, trail: top ? [] : this.stack.map((s) => s.label),
      focus: focus === null ? null : loading ? focus : Math.min(focus, Math.max(0, total - 1)), loading,
      more: total - rows.length, view: top ? view : null,
    });
    // The rest of a long outline follows in slices.
    if (top && total > rows.length) await this.sendMore(false);
  }

  protected async onMessage(m: TrajectoryWebviewMessage): Promise<void> {
    const src = this.doc.source;
    const at = this.path;
    switch (m.type) {
      case 'ready': {
        this.ready = true;
        const key = this.doc.uri.fsPath;
        const focus = this.pending.focus.get(key) ?? null;
        this.pending.focus.delete(key);
        // The page's own state (getState) can be older than what the user last saw when the window reloaded: the
        // host's copy, updated by every viewState message, wins.
        const view = viewStateOf(this.ctx, this.doc.uri);
        this.stack = this.stack.slice(0, 1);
        this.enqueue(() => this.sendInit(focus, view), 'ready');
        // Read in full between the first page and now: the final header (and any rows) the page missed.
        this.enqueue(async () => { if (this.doc.source.status.loading === null) await this.sendMore(true); });
        break;
      }
      case 'getStep': {
        const a = await src.ask('step', at, m.index);
        if (!a) return;
        const media: Record<string, string | null> = {};
        for (const [k, p] of Object.entries(a.media)) media[k] = p ? this.panel.webview.asWebviewUri(vscode.Uri.file(p)).toString() : null;
        void this.post({ type: 'step', step: a.step, media, refused: a.refused, tokens: a.tokens });
        break;
      }
      case 'search': {
        const r = await src.ask('search', at, m.query);
        void this.post({ type: 'searchResult', query: m.query, total: r.total, steps: r.steps, ms: r.ms, partial: r.partial });
        break;
      }
      case 'getRaw': {
        const text = await src.ask('raw', at, m.index);
        if (text === null) return;
        void this.post({ type: 'raw', index: m.index, text: text.slice(0, RAW_CAP), totalChars: text.length });
        break;
      }
      case 'copyStep': {
        const text = await src.ask('raw', at, m.index);
        if (text === null) return;
        await vscode.env.clipboard.writeText(text);
        void vscode.window.setStatusBarMessage(`Copied step #${m.index + 1} as JSON`, 3000);
        break;
      }
      case 'copyLink': {
        const step = this.stack.length === 1 ? m.index : null;
        await vscode.env.clipboard.writeText(formatDeepLink({ kind: 'trajectory', file: this.doc.uri.fsPath, step }, vscode.env.uriScheme));
        void vscode.window.setStatusBarMessage('Copied a link to this trajectory', 3000);
        break;
      }
      case 'openSubagent': await this.openSubagent(m.index); break;
      case 'back':
        if (this.stack.length > 1) { this.stack.pop(); this.enqueue(() => this.sendInit(null)); }
        break;
      case 'openLink': {
        const a = this.pending.attempts.get(this.doc.uri.fsPath);
        const target = m.id === 'testStdout' ? a?.testStdout : a?.verifierDir;
        if (!target) return;
        if (m.id === 'verifier') await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(target));
        else await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(target), { preview: true, viewColumn: vscode.ViewColumn.Beside });
        break;
      }
      case 'openAsText': await vscode.commands.executeCommand('vscode.openWith', this.doc.uri, 'default'); break;
      case 'openProblem': await this.openProblem(m.index); break;
      case 'viewState':
        if (this.stack.length === 1) await keepViewState(this.ctx, this.doc.uri, m.state);
        break;
      case 'cspViolation': this.ctx.log.warn(`trajectory: CSP violation ${m.directive} ${m.blocked}`); break;
      case 'error': this.ctx.log.warn(`trajectory (webview): ${m.message}`); break;
      case 'rendered': break;
    }
  }

  private async openSubagent(index: number): Promise<void> {
    const sub = await this.doc.source.ask('subagent', this.path, index);
    if (!sub) return;
    if (!sub.hasView) {
      void vscode.window.showInformationMessage(`Subagent ${sub.ref}: ${sub.unresolved ?? 'not available'}`);
      return;
    }
    if (sub.kind === 'path' && sub.path && !sub.path.includes('#')) {
      await openTrajectory(this.ctx, vscode.Uri.file(sub.path));
      return;
    }
    this.stack.push({ path: [...this.path, index], label: sub.agent ?? sub.ref });
    this.enqueue(() => this.sendInit(null));
  }

  private async openProblem(index: number): Promise<void> {
    const p = await this.doc.source.ask('problem', this.path, index);
    if (!p) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(p.file));
    const keys = p.pointer ? p.pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~')).map((k) => (/^\d+$/.test(k) ? Number(k) : k)) : [];
    const span = doc.getText().length < 50_000_000 ? new JsonLocator(doc.getText()).spanOf(keys) : undefined;
    const range = span ? new vscode.Range(span.line, span.character, span.endLine, span.endCharacter) : new vscode.Range(0, 0, 0, 0);
    await vscode.window.showTextDocument(doc, { selection: range, preview: true, viewColumn: vscode.ViewColumn.Beside });
  }
}
