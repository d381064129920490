// What JSON.parse and a lenient UTF-8 decoder do silently to a run's bytes, found and said (docs/untrusted-runs.md#
// honest-inputs): a byte order mark before the first value (dropped, with a warning), bytes that are not UTF-8
// (decoded as U+FFFD, with a warning naming the line), numbers beyond a double (1e400 reads as Infinity: a warning
// at its place, the value then counts as no number), duplicate keys (JSON.parse keeps the last one silently: a warning
// naming the key). -0 reads as 0. Each check is one linear pass; none throws.
import * as nodeBuffer from 'node:buffer';

/** Node's native UTF-8 validation (Node 18.14+); the byte walk below where it is missing. */
const nodeIsUtf8 = (nodeBuffer as { isUtf8?: (b: Uint8Array) => boolean }).isUtf8;

/** Whether the bytes (or text) start with a UTF-8 byte order mark. */
export function startsWithBom(b: Uint8Array | string, start = 0): boolean {
  return typeof b === 'string' ? b.charCodeAt(start) === 0xfeff : b[start] === 0xef && b[start + 1] === 0xbb && b[start + 2] === 0xbf;
}

/** The offset of the first byte that is not part of well-formed UTF-8, or -1. Native check first (fast path). */
export function invalidUtf8At(b: Uint8Array, start = 0, end = b.length): number {
  const view = start === 0 && end === b.length ? b : b.subarray(start, end);
  if (nodeIsUtf8 && nodeIsUtf8(view)) return -1;
  for (let i = start; i < end;) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= end) return i;
    const c1 = b[i + 1];
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f) || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return i;
    for (let k = 1; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return -1;
}

/** 1-based line of a byte offset. */
export function lineOfByte(b: Uint8Array, offset: number, start = 0): number {
  let line = 1;
  for (let i = start; i < offset; i++) if (b[i] === 10) line++;
  return line;
}

/**
 * The first key that appears twice in one object of JSON text (JSON.parse keeps the last), with the offset of its
 * second occurrence; undefined when there is none. Keys are compared as written (an escaped spelling of the same key
 * is not recognised). Linear: one pass, one set of keys per open object.
 */
export function duplicateKey(text: string): { key: string; offset: number } | undefined {
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const s = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        const key = text.slice(s + 1, i);
        if (top.has(key)) return { key, offset: s };
        top.add(key);
      }
      expectKey = false;
    } else if (c === 0x7b) { stack.push(new Set()); expectKey = true; } else if (c === 0x5b) { stack.push(null); expectKey = false; } else if (c === 0x7d || c === 0x5d) { stack.pop(); expectKey = false; } else if (c === 0x2c) { expectKey = stack[stack.length - 1] != null; }
  }
  return undefined;
}

/**
 * One pass over JSON text for what the readers check before and after JSON.parse: the offset of the first bracket
 * that opens nesting level `maxDepth` + 1 (-1 when none: jsonDepth.ts depthExceededAt), and how many keys its objects
 * write, all objects together (strings in key position; counted up to that bracket). No allocation but one flag per
 * open bracket; a string is skipped by `indexOf` to its closing quote, not read a character at a time.
 */
export function scanJsonText(text: string, maxDepth: number): { deepAt: number; writtenKeys: number } {
  const inObject: boolean[] = [];
  let depth = 0;
  let expectKey = false;
  let n = 0;
  const end = text.length;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) continue; // white space (most of a pretty-printed file) changes nothing
    if (c === 0x22) {
      // The string ends at the next quote not escaped: one after an even run of backslashes (the run starts past
      // a character that is not a backslash, so its length says whether it escapes the quote).
      let q = text.indexOf('"', i + 1);
      for (;;) {
        if (q < 0) { q = end; break; }
        let b = q - 1;
        while (b > i && text.charCodeAt(b) === 0x5c) b--;
        if (((q - 1 - b) & 1) === 0) break;
        q = text.indexOf('"', q + 1);
      }
      i = q;
      if (expectKey) n++;
      expectKey = false;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return { deepAt: i, writtenKeys: n };
      if (depth > 0) inObject[depth - 1] = c === 0x7b;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) { depth--; expectKey = false; } else if (c === 0x2c) { expectKey = depth > 0 && inObject[depth - 1]; }
  }
  return { deepAt: -1, writtenKeys: n };
}

/**
 * One walk over a parsed value: how many own keys its objects hold (all objects together), and the numbers JSON.parse
 * read as ±Infinity (written beyond a double's range, `1e400`) replaced by null in place (no reader takes them for a
 * value), returned with their JSON path, at most `max` listed (all are replaced); -0 is replaced by 0.
 */
export function walkParsed(value: unknown, max = 20): { keptKeys: number; outOfRange: (string | number)[][] } {
  const outOfRange: (string | number)[][] = [];
  const at: (string | number)[] = [];
  let kept = 0;
  const visit = (o: Record<string | number, unknown>, k: string | number): void => {
    const x = o[k];
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) { o[k] = null; if (outOfRange.length < max) outOfRange.push([...at, k]); } else if (Object.is(x, -0)) o[k] = 0;
    } else if (x && typeof x === 'object') {
      at.push(k);
      walk(x);
      at.pop();
    }
  };
  const walk = (v: object): void => {
    const o = v as Record<string | number, unknown>;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) visit(o, i);
      return;
    }
    for (const k in o) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
      kept++;
      visit(o, k);
    }
  };
  if (value && typeof value === 'object') walk(value);
  return { keptKeys: kept, outOfRange };
}

/** How many keys the objects of JSON text write, all objects together. */
function writtenKeyCount(text: string): number {
  return scanJsonText(text, Number.POSITIVE_INFINITY).writtenKeys;
}

/** How many own keys the objects of a parsed value hold, all objects together. */
function keptKeyCount(v: unknown): number {
  if (!v || typeof v !== 'object') return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) if (x && typeof x === 'object') n += keptKeyCount(x);
    return n;
  }
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    n++;
    const x = (v as Record<string, unknown>)[k];
    if (x && typeof x === 'object') n += keptKeyCount(x);
  }
  return n;
}

/**
 * duplicateKey(text) for text JSON.parse read as `value`, at a fraction of its cost on the common case: a key written
 * twice in one object is kept once, so the keys written outnumber the keys kept; only then is the text searched for
 * which key it was (keys and their sets allocated per object). The same answer as duplicateKey(text).
 * `counts`: the two counts when the caller has them already (scanJsonText, walkParsed).
 */
export function duplicateKeyOf(text: string, value: unknown, counts?: { written: number; kept: number }): { key: string; offset: number } | undefined {
  const same = counts ? counts.written === counts.kept : writtenKeyCount(text) === keptKeyCount(value);
  return same ? undefined : duplicateKey(text);
}

/**
 * Numbers JSON.parse read as ±Infinity (written beyond a double's range, `1e400`) are replaced by null in place (no
 * reader takes them for a value) and returned with their JSON path, at most `max` listed (all are replaced); -0 is
 * replaced by 0 (the same number for every reader).
 */
export function sanitizeNumbers(value: unknown, max = 20): (string | number)[][] {
  return walkParsed(value, max).outOfRange;
}

/** `.a[0].b` for a JSON path. */
export function pathText(p: readonly (string | number)[]): string {
  return p.length ? p.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') : '(top level)';
}
