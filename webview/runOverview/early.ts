// Imported FIRST by the overview's page (before zod, the web components and the charts are set up): it takes the
// VS Code API and says `ready` at once, so the host builds the run's first screen while the rest of the script is
// still being evaluated. Nothing is lost: the whole bundle runs as one task, so the host's answer is dispatched only
// after main.ts has installed its message listener.
export interface VsCodeApi {
  postMessage(m: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The page's one VS Code API object (acquireVsCodeApi may be called only once). */
export const vscodeApi: VsCodeApi = acquireVsCodeApi();

performance.mark('overview:script');
vscodeApi.postMessage({ type: 'ready' });
performance.mark('overview:ready');
