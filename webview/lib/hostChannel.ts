// How a webview page listens to its host, the one way every panel does: a script error and a CSP violation are
// reported to the host, and every message from the host is untrusted input, acted on only when it parses. (VS Code
// relays the host's messages through its own frames, so `event.source` is no sign of the sender.)
import type { Parsed } from '../../src/protocol/parse';
import type { HostFailed } from '../../src/protocol/failed';
import { showBidi } from '../../src/views/bidi';
import { requestWords } from '../../src/views/messageGuard';

/** What a page reports of itself (each panel's protocol has these two messages). */
export type PageReport = { type: 'error'; message: string } | { type: 'cspViolation'; directive: string; blocked: string };

/**
 * The host could not answer one of this page's messages (`failed`, src/protocol/failed.ts): said at the top of the
 * page (one alert, the latest failure, with a button that closes it), and a page still saying "Loading…" stops.
 */
export function showHostFailure(f: HostFailed): void {
  let box = document.getElementById('host-failure');
  if (!box) {
    box = document.createElement('div');
    box.id = 'host-failure';
    box.setAttribute('role', 'alert');
    // Styled here (CSSOM, allowed by the pages' CSP) so every page shows it alike without a stylesheet of its own.
    Object.assign(box.style, {
      display: 'flex', gap: '8px', alignItems: 'baseline', padding: '4px 8px', margin: '4px 0',
      borderLeft: '3px solid var(--vscode-errorForeground)', background: 'var(--vscode-inputValidation-errorBackground, transparent)',
    });
    document.body.prepend(box);
  }
  const text = document.createElement('span');
  text.className = 'host-failure-text';
  text.style.flex = '1';
  text.textContent = showBidi(`Could not ${requestWords(f.request)}: ${f.message} (the Harbor Runs log has the details)`);
  const close = document.createElement('button');
  close.className = 'host-failure-close';
  close.textContent = 'Dismiss';
  const shown = box;
  close.addEventListener('click', () => shown.remove());
  box.replaceChildren(text, close);
  for (const busy of document.querySelectorAll('[aria-busy="true"]')) busy.setAttribute('aria-busy', 'false');
  for (const loading of document.querySelectorAll('p.loading')) loading.remove();
}

/**
 * Installs the listeners; returns the page's error reporter (also logged to the console under `label`). A `failed`
 * message is shown by showHostFailure; the page's own messages go to onMessage.
 */
export function listenToHost<M extends { type: string }>(post: (m: PageReport) => void, parse: (data: unknown) => Parsed<M>,
  onMessage: (m: Exclude<M, HostFailed>) => void, label?: string): (message: string) => void {
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
    const m = parsed.message;
    if (m.type === 'failed') showHostFailure(m as unknown as HostFailed);
    else onMessage(m as Exclude<M, HostFailed>);
  });
  return reportError;
}
