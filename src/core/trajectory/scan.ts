// Reads a JSON object as it arrives, without parsing it whole: the top-level keys one by one, and the elements of its
// "steps" array one at a time (each JSON.parsed from its own bytes), so the trajectory loader can show the first steps
// of a 100 MB file before the rest is read. It works on the raw UTF-8 bytes: strings are skipped with indexOf
// (escape-aware: a quote preceded by an odd number of backslashes is inside the string), brackets are counted outside
// strings; no byte of a multi-byte UTF-8 sequence is ASCII, so this is exact. It does not validate what it skips:
// every value it hands out is JSON.parsed, and anything it does not expect (not an object, a repeated "steps", a
// value that does not parse) makes it answer `fallback`, so the caller parses the text whole — which says where it is
// not JSON, exactly as before.
import { Buffer } from 'node:buffer';

export interface Span { start: number; end: number }

/** Bytes as they are read: `buf` holds `avail` valid bytes; `more()` reads on (sets `eof` at the end). */
export interface ByteSource {
  buf: Buffer;
  avail: number;
  eof: boolean;
  more(): Promise<void>;
}

const MORE = -1;
const BAD = -2;

function isWs(c: number): boolean { return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; }

class Scanner {
  constructor(private readonly s: ByteSource) {}
  private get view(): Buffer { return this.s.buf.subarray(0, this.s.avail); }
  private short(): number { return this.s.eof ? BAD : MORE; }

  /** First non-whitespace at or after i; at the very end of a complete file, its length. */
  ws(i: number): number {
    const b = this.s.buf; const n = this.s.avail;
    while (i < n && isWs(b[i])) i++;
    return i < n || this.s.eof ? i : MORE;
  }

  /** End (exclusive) of the string whose opening quote is at i. */
  str(i: number): number {
    const v = this.view;
    for (let j = i + 1; ;) {
      const q = v.indexOf(0x22, j);
      if (q < 0) return this.short();
      let k = q - 1;
      while (k > i && v[k] === 0x5c) k--;
      if ((q - 1 - k) % 2 === 0) return q + 1;
      j = q + 1;
    }
  }

  /** End (exclusive) of the value starting at i (no whitespace before it). */
  value(i: number): number {
    const b = this.s.buf; const n = this.s.avail;
    if (i >= n) return this.short();
    const c = b[i];
    if (c === 0x22) return this.str(i);
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      for (let j = i; j < n; j++) {
        const d = b[j];
        if (d === 0x22) { const e = this.str(j); if (e < 0) return e; j = e - 1; }
        else if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) { if (--depth === 0) return j + 1; }
      }
      return this.short();
    }
    let j = i;
    while (j < n) { const d = b[j]; if (d === 0x2c || d === 0x7d || d === 0x5d || isWs(d)) break; j++; }
    if (j === n && !this.s.eof) return MORE;
    return j > i ? j : BAD;
  }
}

export interface StreamHandlers {
  /** Each top-level key but "steps", with its parsed value, in file order. */
  onKey(key: string, value: unknown): void;
  /** "steps" was found and is an array: its elements follow through onStep. */
  onStepsStart(): void | Promise<void>;
  onStep(raw: unknown, index: number, span: Span): void | Promise<void>;
}

export type StreamResult =
  | { ok: true; steps: Span[] | null }
  /** Not an object the scan can follow (or not JSON): parse the whole text instead. */
  | { ok: false; fallback: true };

/** Streams the object in `src` (BOM allowed) through `h`. */
export async function streamObject(src: ByteSource, h: StreamHandlers): Promise<StreamResult> {
  const sc = new Scanner(src);
  const fail: StreamResult = { ok: false, fallback: true };
  const need = async (f: () => number): Promise<number> => {
    for (;;) { const r = f(); if (r !== MORE) return r; await src.more(); }
  };
  const text = (a: number, b: number) => src.buf.toString('utf8', a, b);
  const parse = (a: number, b: number): { v: unknown } | null => { try { return { v: JSON.parse(text(a, b)) }; } catch { return null; } };
  const at = (i: number) => (i >= 0 && i < src.avail ? src.buf[i] : -1);

  await need(() => (src.avail >= 3 || src.eof ? 0 : MORE));
  let i = src.buf[0] === 0xef && src.buf[1] === 0xbb && src.buf[2] === 0xbf ? 3 : 0;
  i = await need(() => sc.ws(i));
  if (at(i) !== 0x7b) return fail;
  i = await need(() => sc.ws(i + 1));
  let steps: Span[] | null = null;
  if (at(i) !== 0x7d) {
    for (;;) {
      if (at(i) !== 0x22) return fail;
      const ke = await need(() => sc.str(i));
      if (ke < 0) return fail;
      const key = parse(i, ke);
      if (!key || typeof key.v !== 'string') return fail;
      i = await need(() => sc.ws(ke));
      if (at(i) !== 0x3a) return fail;
      i = await need(() => sc.ws(i + 1));
      let ve: number;
      if (key.v === 'steps' && at(i) === 0x5b) {
        if (steps) return fail;
        steps = [];
        await h.onStepsStart();
        let j = await need(() => sc.ws(i + 1));
        if (at(j) !== 0x5d) {
          for (;;) {
            const e = await need(() => sc.value(j));
            if (e < 0) return fail;
            const raw = parse(j, e);
            if (!raw) return fail;
            const span = { start: j, end: e };
            steps.push(span);
            await h.onStep(raw.v, steps.length - 1, span);
            j = await need(() => sc.ws(e));
            if (at(j) === 0x5d) break;
            if (at(j) !== 0x2c) return fail;
            j = await need(() => sc.ws(j + 1));
          }
        }
        ve = j + 1;
      } else {
        if (key.v === 'steps' && steps) return fail;
        ve = await need(() => sc.value(i));
        if (ve < 0) return fail;
        const v = parse(i, ve);
        if (!v) return fail;
        h.onKey(key.v, v.v);
      }
      i = await need(() => sc.ws(ve));
      if (at(i) === 0x7d) break;
      if (at(i) !== 0x2c) return fail;
      i = await need(() => sc.ws(i + 1));
    }
  }
  const end = await need(() => sc.ws(i + 1));
  return end === src.avail && src.eof ? { ok: true, steps } : fail;
}
