// A byte-level scanner that takes only the wanted top-level keys out of one JSON object line, skipping every other
// value (a 25 KB `response` or `ng_trajectory`) without decoding or parsing it. Strings are skipped with the native
// `indexOf` (on a row worker, 16 bytes at a time by skipWasm.ts). Throws SyntaxError on a line that is not a JSON object.
import { asBuffer, NodeBuffer } from '../bytes';
import type { FastSkip } from './skipWasm';

const QUOTE = 0x22, BSLASH = 0x5c, LBRACE = 0x7b, RBRACE = 0x7d, LBRACK = 0x5b, RBRACK = 0x5d, COLON = 0x3a, COMMA = 0x2c;

const decoder = new TextDecoder('utf-8');

function isWs(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function skipWs(buf: Uint8Array, i: number, end: number): number {
  while (i < end && isWs(buf[i])) i++;
  return i;
}

/** Where a line stops being JSON: `at` counts bytes from the start of the buffer scanned (pickLine makes it the line's). */
export class ScanError extends SyntaxError {
  constructor(readonly at: number) {
    super(`unexpected input at byte ${at}`);
  }
}

function fail(i: number): never {
  throw new ScanError(i);
}

let fast: FastSkip | undefined;

/**
 * Strings and containers in `f.bytes` (the bytes a row worker read or copied there) are skipped by `f`, 16 bytes at a time
 * (skipWasm.ts); in any other bytes, by indexOf here. The positions and failures are the same either way.
 */
export function setFastSkip(f: FastSkip | undefined): void {
  fast = f;
}

/** The skipper set on this thread, if any. */
export function fastSkip(): FastSkip | undefined {
  return fast;
}

/** Index just after the closing quote of the string starting at `i` (buf[i] is the opening quote), before `end`. */
function skipString(buf: Uint8Array, i: number, end: number): number {
  if (fast !== undefined && buf === fast.bytes) {
    const r = fast.str(i, end);
    if (r < 0) fail(-1 - r);
    return r;
  }
  let j = i + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, j);
    if (q < 0 || q >= end) fail(end);
    // An odd number of backslashes before the quote escapes it.
    let k = q - 1;
    while (k > i && buf[k] === BSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just after the value starting at `i`. */
function skipValue(buf: Uint8Array, i: number, end: number): number {
  const b = buf[i];
  if (b === QUOTE) return skipString(buf, i, end);
  if (fast !== undefined && buf === fast.bytes && (b === LBRACE || b === LBRACK)) {
    const r = fast.box(i, end);
    if (r < 0) fail(-1 - r);
    return r;
  }
  if (b === LBRACE || b === LBRACK) {
    let depth = 0;
    let j = i;
    while (j < end) {
      const c = buf[j];
      if (c === QUOTE) { j = skipString(buf, j, end); continue; }
      if (c === LBRACE || c === LBRACK) depth++;
      else if (c === RBRACE || c === RBRACK) { depth--; if (depth === 0) return j + 1; }
      j++;
    }
    fail(end);
  }
  let j = i;
  while (j < end) {
    const c = buf[j];
    if (c === COMMA || c === RBRACE || c === RBRACK || isWs(c)) break;
    j++;
  }
  if (j === i) fail(i);
  return j;
}

/** Keys are compared as bytes: the wanted names are ASCII, so an escaped key simply never matches. */
function keyMatches(buf: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (buf[start + k] !== key[k]) return false;
  return true;
}

// Quotes are searched with Node's Buffer#indexOf (memchr; about twice as fast as a plain Uint8Array's indexOf over
// a transcript's hundreds of strings): callers hand in asBuffer's bytes. Without Node's Buffer (a browser), the
// Uint8Array's own indexOf does.

/**
 * JSON.parse of one picked value. With Node's Buffer the bytes are decoded by Buffer#toString (a direct native
 * call, cheaper than TextDecoder#decode for the half a million short values of a 40k-row file). Hand-written fast
 * paths for small strings and integers were measured slower than this native pair and are not used.
 */
function parseValue(buf: Uint8Array, start: number, end: number): unknown {
  return JSON.parse(NodeBuffer && NodeBuffer.isBuffer(buf) ? buf.toString('utf8', start, end) : decoder.decode(buf.subarray(start, end)));
}

/** A value's bytes, valid only while the line is (the chunk's buffer is reused). */
export class RawValue {
  constructor(readonly buf: Uint8Array, readonly start: number, readonly end: number) {}

  /** Whether the bytes equal `other`'s. */
  equals(other: Uint8Array): boolean {
    const n = this.end - this.start;
    if (other.length !== n) return false;
    for (let k = 0; k < n; k++) if (this.buf[this.start + k] !== other[k]) return false;
    return true;
  }

  /**
   * A copy of the bytes (kept beyond the line). Not `buf.slice`: on a Node Buffer (what the writer hands in) that is a
   * view of the chunk's buffer, which the next read-ahead overwrites.
   */
  copy(): Uint8Array {
    const out = new Uint8Array(this.end - this.start);
    out.set(this.buf.subarray(this.start, this.end));
    return out;
  }

  /** The value: an object picked by `picker`, anything else parsed. */
  parse(picker?: KeyPicker): unknown {
    return picker && this.buf[this.start] === LBRACE ? picker.pickRange(this.buf, this.start, this.end) : parseValue(this.buf, this.start, this.end);
  }
}

/** Values up to this many bytes are remembered by a KeyPicker with `reuse`. */
const REUSE_MAX = 256;

export class KeyPicker {
  private readonly keys: Uint8Array[];
  /** With `reuse`: per wanted key, the bytes of the last value parsed (up to REUSE_MAX), their length, and the value. */
  private readonly lastBytes: Uint8Array[] = [];
  private readonly lastLength: number[] = [];
  private readonly lastValue: unknown[] = [];

  /**
   * `nested` maps a wanted key to a picker for its sub-keys: an object value is then picked, not parsed whole (so
   * `responses_create_params.input` is skipped while its `metadata` is taken).
   */
  constructor(readonly names: readonly string[], private readonly nested: Record<string, KeyPicker> = {},
    /** Wanted keys whose value is handed back unparsed, as a RawValue (the caller decides whether to parse it). */
    private readonly raw: readonly string[] = [],
    /**
     * A value whose bytes equal the last value parsed for its key is not parsed again: the same value is handed
     * back (the rows of a run repeat most of their small values: task id, task_source, metadata, flags). An object
     * value may therefore be shared by several rows' picks: callers must not change what they get.
     */
    private readonly reuse = false) {
    const enc = new TextEncoder();
    this.keys = names.map((n) => enc.encode(n));
    this.keys.forEach((k, i) => { (this.byLength[k.length] ??= []).push(i); });
    if (reuse) {
      for (let i = 0; i < names.length; i++) { this.lastBytes.push(new Uint8Array(REUSE_MAX)); this.lastLength.push(-1); this.lastValue.push(undefined); }
    }
  }

  /** parseValue, or the last value of key `idx` when its bytes were the same (compared from the end: values that differ mostly differ there). */
  private parseReusing(idx: number, buf: Uint8Array, start: number, end: number): unknown {
    const n = end - start;
    if (n > REUSE_MAX) return parseValue(buf, start, end);
    const last = this.lastBytes[idx];
    if (this.lastLength[idx] === n) {
      let k = n - 1;
      while (k >= 0 && buf[start + k] === last[k]) k--;
      if (k < 0) return this.lastValue[idx];
    }
    const v = parseValue(buf, start, end);
    for (let k = 0; k < n; k++) last[k] = buf[start + k];
    this.lastLength[idx] = n;
    this.lastValue[idx] = v;
    return v;
  }

  /** Wanted key indexes by the key's byte length: most keys of a row are rejected by their length alone. */
  private readonly byLength: number[][] = [];

  /** The first wanted key the last pickRange found twice in its object (the last value is the one kept), if any. */
  duplicate: string | undefined;

  /**
   * The wanted top-level keys of the object in `bytes`, parsed with JSON.parse; keys not in the object are absent.
   * `stopWhenFound`: return as soon as every wanted key was seen (the rest of the object is not checked).
   */
  pick(bytes: Uint8Array, stopWhenFound = false): Record<string, unknown> {
    return this.pickRange(asBuffer(bytes), 0, bytes.length, stopWhenFound);
  }

  /**
   * pick() of the object in bytes [start, end) of `buf`, without a view per line: the writer hands in the lines
   * of a whole chunk this way. `buf` should come from asBuffer (a Node Buffer where there is one).
   */
  pickRange(buf: Uint8Array, start: number, end: number, stopWhenFound = false): Record<string, unknown> {
    let found = 0;
    const out: Record<string, unknown> = {};
    this.duplicate = undefined;
    let i = skipWs(buf, start, end);
    if (i >= end || buf[i] !== LBRACE) fail(i);
    i = skipWs(buf, i + 1, end);
    if (buf[i] === RBRACE && i < end) { this.checkEnd(buf, i + 1, end); return out; }
    for (;;) {
      if (i >= end || buf[i] !== QUOTE) fail(i);
      const kEnd = skipString(buf, i, end);
      let idx = -1;
      const candidates = this.byLength[kEnd - i - 2];
      if (candidates) {
        for (let c = 0; c < candidates.length; c++) {
          if (keyMatches(buf, i + 1, kEnd - 1, this.keys[candidates[c]])) { idx = candidates[c]; break; }
        }
      }
      i = skipWs(buf, kEnd, end);
      if (i >= end || buf[i] !== COLON) fail(i);
      i = skipWs(buf, i + 1, end);
      if (i >= end) fail(i);
      const vStart = i;
      i = skipValue(buf, i, end);
      if (idx >= 0) {
        const name = this.names[idx];
        if (this.duplicate === undefined && Object.prototype.hasOwnProperty.call(out, name)) this.duplicate = name;
        const sub = Object.prototype.hasOwnProperty.call(this.nested, name) ? this.nested[name] : undefined;
        if (this.raw.length && this.raw.includes(name)) out[name] = new RawValue(buf, vStart, i);
        else if (sub && buf[vStart] === LBRACE) out[name] = sub.pickRange(buf, vStart, i);
        else out[name] = this.reuse ? this.parseReusing(idx, buf, vStart, i) : parseValue(buf, vStart, i);
        if (stopWhenFound && ++found === this.keys.length) return out;
      }
      i = skipWs(buf, i, end);
      if (i < end && buf[i] === COMMA) { i = skipWs(buf, i + 1, end); continue; }
      if (i < end && buf[i] === RBRACE) { this.checkEnd(buf, i + 1, end); return out; }
      fail(i);
    }
  }

  private checkEnd(buf: Uint8Array, i: number, end: number): void {
    if (skipWs(buf, i, end) !== end) fail(i);
  }
}
