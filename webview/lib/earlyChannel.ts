// A page's first script (webview/<panel>/early.ts, out/webview/<panel>Early.js, first in the page's head with the
// page's nonce: PanelPage.early) and its bundle (main.ts) share the page's one VS Code API object
// (acquireVsCodeApi may be called only once) and the host's messages that came before the bundle listened. The
// early script says `ready` at once, so the host sends the first screen while the bundle is still being fetched and
// parsed; the bundle then takes what was kept.
export interface VsCodeApi {
  postMessage(m: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}

export interface EarlyChannel {
  api: VsCodeApi;
  /** The messages received so far, in order; the early script stops keeping them. */
  takeQueued(): MessageEvent[];
}

/** The window property the early script sets. */
const EARLY_CHANNEL = 'harborRunsEarly';

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * The early script's work: take the API, keep every host message, say `ready`. `mark` names the page's
 * performance marks (`<mark>:script`, `<mark>:ready`, `<mark>:first-message`), which the benchmarks read.
 */
export function startEarly(mark: string): void {
  const api = apiSayingReady(mark);
  const queued: MessageEvent[] = [];
  const keep = (e: MessageEvent): void => {
    if (!queued.length) performance.mark(`${mark}:first-message`);
    queued.push(e);
  };
  window.addEventListener('message', keep);
  const channel: EarlyChannel = {
    api,
    takeQueued() {
      window.removeEventListener('message', keep);
      return queued.splice(0);
    },
  };
  (window as unknown as Record<string, EarlyChannel>)[EARLY_CHANNEL] = channel;
}

/** Takes the page's VS Code API and says `ready` with it (marks `<mark>:script` and `<mark>:ready`). */
function apiSayingReady(mark: string): VsCodeApi {
  const api = acquireVsCodeApi();
  performance.mark(`${mark}:script`);
  api.postMessage({ type: 'ready' });
  performance.mark(`${mark}:ready`);
  return api;
}

/**
 * The bundle's side: the early script's channel; when it did not run (a page without it), the API is taken here
 * and `ready` said now, which is what the early script would have done.
 */
export function earlyChannel(mark: string): EarlyChannel {
  const c = (window as unknown as Record<string, EarlyChannel | undefined>)[EARLY_CHANNEL];
  return c ?? { api: apiSayingReady(mark), takeQueued: () => [] };
}
