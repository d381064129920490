// Is a parsed JSON document ATIF, and if not, what does it look like? Native agent formats (mini-swe-agent,
// SWE-agent, gemini-cli, OpenHands events, plain chat messages) are named so the user knows what they opened.
import type { NotAtif } from './types';
import { isObj, own } from './json';
import { plural } from '../format';

export type Detected =
  | { atif: true; version: string; known: boolean }
  | { atif: false; notAtif: NotAtif; stepsLike: boolean };

const KNOWN = /^ATIF-v1\.[0-8]$/;

function keysOf(o: Record<string, unknown>, max = 6): string {
  const keys = Object.keys(o);
  const shown = keys.slice(0, max).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 39)}…` : k)).join(', ');
  return keys.length > max ? `${shown}, … (${keys.length} keys)` : shown || 'no keys';
}

function chatMessages(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.slice(0, 5).every((m) => isObj(m) && typeof own(m, 'role') === 'string');
}

export function detect(doc: unknown): Detected {
  if (isObj(doc)) {
    const sv = own(doc, 'schema_version');
    const steps = own(doc, 'steps');
    if (typeof sv === 'string' && sv.startsWith('ATIF-')) return { atif: true, version: sv, known: KNOWN.test(sv) };
    const stepsLike = Array.isArray(steps);
    const format = own(doc, 'trajectory_format');
    if ((typeof format === 'string' && format.startsWith('mini-swe-agent')) || (chatMessages(own(doc, 'messages')) && isObj(own(doc, 'info')))) {
      return no('a mini-swe-agent trajectory', 'chat messages with role and content under "messages" and run info under "info"; convert it to ATIF to view it as a timeline', false);
    }
    if (Array.isArray(own(doc, 'trajectory')) && (Array.isArray(own(doc, 'history')) || isObj(own(doc, 'info')))) {
      return no('a SWE-agent trajectory (.traj)', 'action / observation entries under "trajectory" and the chat under "history"', false);
    }
    const msgs = own(doc, 'messages');
    if ((typeof own(doc, 'sessionId') === 'string' || typeof own(doc, 'projectHash') === 'string') && Array.isArray(msgs)) {
      return no('a gemini-cli session log', 'messages of type "user" / "gemini" under "messages", keyed by sessionId', false);
    }
    if (chatMessages(msgs)) return no('a chat transcript', 'a list of role / content messages under "messages", not ATIF steps', false);
    if (stepsLike) {
      return no('an ATIF-like document without an ATIF schema_version', `schema_version is ${sv === undefined ? 'missing' : JSON.stringify(sv)}; its steps are shown as far as they parse`, true);
    }
    return no('unrelated JSON', `an object with ${keysOf(doc)}; an ATIF trajectory has "schema_version": "ATIF-v1.x", "agent" and "steps"`, false);
  }
  if (Array.isArray(doc)) {
    if (chatMessages(doc)) return no('a chat transcript', `a JSON array of ${doc.length} role / content messages, not an ATIF document`, false);
    if (doc.slice(0, 5).some((e) => isObj(e) && ('action' in e || 'observation' in e))) {
      return no('an OpenHands-style event list', `a JSON array of ${doc.length} action / observation events`, false);
    }
    return no('unrelated JSON', `a JSON array of ${plural(doc.length, 'item')}, not an ATIF document`, false);
  }
  return no('unrelated JSON', `a JSON ${doc === null ? 'null' : typeof doc}, not an ATIF document`, false);
}

function no(looksLike: string, detail: string, stepsLike: boolean): Detected {
  return { atif: false, notAtif: { looksLike, detail }, stepsLike };
}
