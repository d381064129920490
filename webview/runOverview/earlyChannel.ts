// What the overview page's first script (early.ts) hands to its bundle (main.ts): the page's one VS Code API object
// (acquireVsCodeApi may be called only once) and the host's messages that came before the bundle listened.
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

/** The window property early.ts sets. */
export const EARLY_CHANNEL = 'harborRunsOverviewEarly';

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * The early script's channel; when it did not run (a page without it), the API is taken here and `ready` said now,
 * which is what early.ts would have done.
 */
export function earlyChannel(): EarlyChannel {
  const c = (window as unknown as Record<string, EarlyChannel | undefined>)[EARLY_CHANNEL];
  if (c) return c;
  const api = acquireVsCodeApi();
  performance.mark('overview:script');
  api.postMessage({ type: 'ready' });
  performance.mark('overview:ready');
  return { api, takeQueued: () => [] };
}
