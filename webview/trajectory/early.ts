// The trajectory page's first script (out/webview/trajectoryEarly.js, first in the page's head: PanelPage.early): it
// says `ready` while the bundle is still being fetched and parsed, and keeps the host's first messages (the header
// and the outline's first rows) until the bundle listens (webview/lib/earlyChannel.ts).
import { startEarly } from '../lib/earlyChannel';

startEarly('trajectory');
