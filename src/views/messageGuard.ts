// A webview panel's handling of one message from its page, guarded (vscode-free; used by src/vscode/panels/panelHost.ts
// for every panel and the trajectory editor): a handler that throws or rejects is caught and reported — logged, the
// user told, the page told — never left as an unhandled rejection in the extension host.

/** What failed: the page's message type, the error's message (one line for the user and the page) and the error. */
export interface MessageFailure {
  request: string;
  message: string;
  error: unknown;
}

/**
 * A page's message type in words, for "Could not …": 'openProblem' → 'open problem', 'moreRows' → 'more rows';
 * the page's first message ('ready', answered with the view's content) → 'load this view'.
 */
export function requestWords(type: string): string {
  if (type === 'ready') return 'load this view';
  return type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** At most this many characters of an error's message go to the page and the notification (the log has all of it). */
const MAX_MESSAGE = 1000;

function messageOf(e: unknown): string {
  const text = e instanceof Error ? e.message || e.name : typeof e === 'string' ? e : (() => { try { return String(e); } catch { return 'unknown error'; } })();
  const line = text.trim() || 'unknown error';
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}

/**
 * Runs `handle` for the page's message of type `request`; a throw (synchronous or a rejection) goes to `report`,
 * once. Resolves true when the handler finished, false when it failed; never rejects (nor does a report that throws).
 */
export async function guardMessage(request: string, handle: () => void | Promise<void>, report: (f: MessageFailure) => void | Promise<void>): Promise<boolean> {
  try {
    await handle();
    return true;
  } catch (error) {
    try {
      await report({ request, message: messageOf(error), error });
    } catch { /* the report failing leaves nothing more to tell */ }
    return false;
  }
}
