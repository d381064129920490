// Text from a run (task ids, messages, paths) made safe for a terminal: control characters (C0, DEL, C1), which
// start escape sequences (clear the screen, move the cursor, set the title, hyperlinks) or forge lines (\r, \n), and
// bidi controls, which reorder what is displayed, are shown as visible escapes (`\x1b`, `\u202e`) instead of acting.

/** C0 controls, DEL, C1 controls; the bidi embeddings, overrides, isolates and marks. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const c = ch.charCodeAt(0);
  return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

/** One line of terminal output: every unsafe character escaped (a newline inside a value too). */
export function safeLine(s: string): string {
  return s.replace(UNSAFE, visible);
}

/** Whether s holds a character safeLine escapes. */
export function hasUnsafe(s: string): boolean {
  UNSAFE.lastIndex = 0;
  const hit = UNSAFE.test(s);
  UNSAFE.lastIndex = 0;
  return hit;
}

/**
 * JSON text for a terminal: JSON.stringify already escapes C0 controls inside strings; C1 and bidi controls are
 * written raw by it, so they are escaped here as \uXXXX (the JSON means the same).
 */
export function safeJson(json: string): string {
  return json.replace(UNSAFE_RAW_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether json holds a character safeJson escapes. */
export function hasRawUnsafe(json: string): boolean {
  return UNSAFE_RAW_IN_JSON_ONE.test(json);
}

/** What JSON.stringify leaves raw: DEL, C1 controls, bidi controls (its own newlines and indentation stay). */
const RAW_IN_JSON = '[\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]';
const UNSAFE_RAW_IN_JSON = new RegExp(RAW_IN_JSON, 'g');
const UNSAFE_RAW_IN_JSON_ONE = new RegExp(RAW_IN_JSON);
