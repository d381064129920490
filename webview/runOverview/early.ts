// The overview page's first script (out/webview/runOverviewEarly.js, first in the page's head: PanelPage.early): a
// few hundred bytes, so it runs while the bundle (zod, the web components, the charts) is still being fetched and
// parsed. It takes the VS Code API, keeps every message the host sends until the bundle listens, and says `ready`
// at once, so the host sends the first screen while the rest of the page is being set up (webview/lib/earlyChannel.ts).
import { startEarly } from '../lib/earlyChannel';

startEarly('overview');
