// A byte-level scanner that takes only the wanted top-level keys out of one JSON object line, skipping every other
// value (a 25 KB `response` or `ng_trajectory`) without decoding or parsing it. Strings are skipped with the native
// `indexOf`, so a transcript costs a few memchr calls. Throws SyntaxError on a line that is not a JSON object.
const QUOTE = 0x22, BSLASH = 0x5c, LBRACE = 0x7b, RBRACE = 0x7d, LBRACK = 0x5b, RBRACK = 0x5d, COLON = 0x3a, COMMA = 0x2c;

const decoder = new TextDecoder('utf-8');

function isWs(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function skipWs(buf: Uint8Array, i: number): number {
  while (i < buf.length && isWs(buf[i])) i++;
  return i;
}

function fail(i: number): never {
  throw new SyntaxError(`unexpected input at byte ${i}`);
}

/** Index just after the closing quote of the string starting at `i` (buf[i] is the opening quote). */
function skipString(buf: Uint8Array, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = (buf as Buffer).indexOf(QUOTE, j);
    if (q < 0) fail(buf.length);
    // An odd number of backslashes before the quote escapes it.
    let k = q - 1;
    while (k > i && buf[k] === BSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just after the value starting at `i`. */
function skipValue(buf: Uint8Array, i: number): number {
  const b = buf[i];
  if (b === QUOTE) return skipString(buf, i);
  if (b === LBRACE || b === LBRACK) {
    let depth = 0;
    let j = i;
    const n = buf.length;
    while (j < n) {
      const c = buf[j];
      if (c === QUOTE) { j = skipString(buf, j); continue; }
      if (c === LBRACE || c === LBRACK) depth++;
      else if (c === RBRACE || c === RBRACK) { depth--; if (depth === 0) return j + 1; }
      j++;
    }
    fail(n);
  }
  let j = i;
  while (j < buf.length) {
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
// a transcript's hundreds of strings). Without Node's Buffer (a browser), the Uint8Array's own indexOf does.
const NodeBuffer: typeof Buffer | undefined = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const asBuffer = (b: Uint8Array): Uint8Array =>
  (!NodeBuffer || NodeBuffer.isBuffer(b) ? b : NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength));

/**
 * JSON.parse of one picked value. With Node's Buffer the bytes are decoded by Buffer#toString (a direct native
 * call, cheaper than TextDecoder#decode for the half a million short values of a 40k-row file).
 */
function parseValue(slice: Uint8Array): unknown {
  return JSON.parse(NodeBuffer && NodeBuffer.isBuffer(slice) ? slice.toString('utf8') : decoder.decode(slice));
}

export class KeyPicker {
  private readonly keys: Uint8Array[];
  /**
   * `nested` maps a wanted key to a picker for its sub-keys: an object value is then picked, not parsed whole (so
   * `responses_create_params.input` is skipped while its `metadata` is taken).
   */
  constructor(readonly names: readonly string[], private readonly nested: Record<string, KeyPicker> = {}) {
    const enc = new TextEncoder();
    this.keys = names.map((n) => enc.encode(n));
    this.keys.forEach((k, i) => { (this.byLength[k.length] ??= []).push(i); });
  }

  /** Wanted key indexes by the key's byte length: most keys of a row are rejected by their length alone. */
  private readonly byLength: number[][] = [];

  /**
   * The wanted top-level keys of the object in `buf`, parsed with JSON.parse; keys not in the object are absent.
   * `stopWhenFound`: return as soon as every wanted key was seen (the rest of the object is not checked).
   */
  pick(bytes: Uint8Array, stopWhenFound = false): Record<string, unknown> {
    const buf = asBuffer(bytes);
    let found = 0;
    const out: Record<string, unknown> = {};
    let i = skipWs(buf, 0);
    if (buf[i] !== LBRACE) fail(i);
    i = skipWs(buf, i + 1);
    if (buf[i] === RBRACE) { this.checkEnd(buf, i + 1); return out; }
    for (;;) {
      if (buf[i] !== QUOTE) fail(i);
      const kEnd = skipString(buf, i);
      let idx = -1;
      const candidates = this.byLength[kEnd - i - 2];
      if (candidates) {
        for (let c = 0; c < candidates.length; c++) {
          if (keyMatches(buf, i + 1, kEnd - 1, this.keys[candidates[c]])) { idx = candidates[c]; break; }
        }
      }
      i = skipWs(buf, kEnd);
      if (buf[i] !== COLON) fail(i);
      i = skipWs(buf, i + 1);
      const vStart = i;
      i = skipValue(buf, i);
      if (idx >= 0) {
        const name = this.names[idx];
        const sub = Object.prototype.hasOwnProperty.call(this.nested, name) ? this.nested[name] : undefined;
        const slice = buf.subarray(vStart, i);
        out[name] = sub && buf[vStart] === LBRACE ? sub.pick(slice) : parseValue(slice);
        if (stopWhenFound && ++found === this.keys.length) return out;
      }
      i = skipWs(buf, i);
      if (buf[i] === COMMA) { i = skipWs(buf, i + 1); continue; }
      if (buf[i] === RBRACE) { this.checkEnd(buf, i + 1); return out; }
      fail(i);
    }
  }

  private checkEnd(buf: Uint8Array, i: number): void {
    if (skipWs(buf, i) !== buf.length) fail(i);
  }
}
