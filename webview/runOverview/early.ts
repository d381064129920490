// The overview page's first script (out/webview/runOverviewEarly.js, first in the page's head: PanelPage.early): a
// few hundred bytes, so it runs while the bundle (zod, the web components, the charts) is still being fetched and
// parsed. It takes the VS Code API, keeps every message the host sends until the bundle listens, and says `ready`
// at once, so the host sends the first screen while the rest of the page is being set up (earlyChannel.ts).
import { EARLY_CHANNEL, type EarlyChannel, type VsCodeApi } from './earlyChannel';

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const queued: MessageEvent[] = [];
const keep = (e: MessageEvent): void => {
  if (!queued.length) performance.mark('overview:first-message');
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
performance.mark('overview:script');
api.postMessage({ type: 'ready' });
performance.mark('overview:ready');
