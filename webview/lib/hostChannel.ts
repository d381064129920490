// How a webview page listens to its host, the one way every panel does: a script error and a CSP violation are
// reported to the host, and every message from the host is untrusted input, acted on only when it parses. (VS Code
// relays the host's messages through its own frames, so `event.source` is no sign of the sender.)
import type { Parsed } from '../../src/protocol/parse';

/** What a page reports of itself (each panel's protocol has these two messages). */
export type PageReport = { type: 'error'; message: string } | { type: 'cspViolation'; directive: string; blocked: string };

/** Installs the listeners; returns the page's error reporter (also logged to the console under `label`). */
export function listenToHost<M>(post: (m: PageReport) => void, parse: (data: unknown) => Parsed<M>, onMessage: (m: M) => void,
  label?: string): (message: string) => void {
  const reportError = (message: string): void => {
    if (label) console.warn(`${label}: ${message}`);
    post({ type: 'error', message: message.slice(0, 4000) });
  };
  window.addEventListener('error', (e) => reportError(`${e.message} (${e.filename}:${e.lineno})`));
  document.addEventListener('securitypolicyviolation', (e) => {
    post({ type: 'cspViolation', directive: String(e.violatedDirective).slice(0, 200), blocked: String(e.blockedURI).slice(0, 500) });
  });
  window.addEventListener('message', (event: MessageEvent) => {
    const parsed = parse(event.data);
    if (!parsed.ok) { reportError(`dropped an invalid message from the host (${parsed.error})`); return; }
    onMessage(parsed.message);
  });
  return reportError;
}
