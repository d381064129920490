// Where a value named by a JSON path sits in a JSON text: the ONE locator, used for the line and column of a reader's
// Problem (readers/jsonFile.ts), the range of its Problems-panel entry and the place "go to problem" opens (the
// extension). It points at the VALUE (a property's key is one token before it); a path that does not exist lands on
// its deepest existing parent. Zero-based line / character pairs, as editors count.
import type { Problem } from './model';

export interface Span {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

/**
 * Offsets where each line of `text` starts. The newlines are counted first, so the offsets go into one array of the
 * right size (a 40 MB run summary has a million lines: a growing list of them cost ~0.5 s and its copies).
 */
export function lineStartsOf(text: string): Int32Array {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  const starts = new Int32Array(n);
  let k = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
  return starts;
}

/** 1-based line and column of an offset, by binary search over the line starts. */
export function lineColumnFast(starts: ArrayLike<number>, offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const SLASH = 0x2f;

/**
 * A container's children read so far: [start, end) of each value, by key (the first of a key given twice) or by
 * index; `next` is where reading goes on (-1 once the container is read to its end).
 */
interface Container {
  isObject: boolean;
  keys: Map<string, [number, number]>;
  items: [number, number][];
  next: number;
}

/** The offset after whitespace (a byte order mark included) and comments from i. */
function skipSpace(text: string, i: number): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) continue;
    if (c === SLASH) {
      const d = text.charCodeAt(i + 1);
      if (d === SLASH) { const nl = text.indexOf('\n', i + 2); i = nl < 0 ? text.length : nl; continue; }
      if (d === 0x2a) { const close = text.indexOf('*/', i + 2); i = close < 0 ? text.length : close + 1; continue; }
    }
    break;
  }
  return i;
}

/**
 * The offset after the string that opens at i (its closing quote included), or the text's end. The next quote is
 * found by indexOf (most of a run summary's text is inside strings: a character loop over them was most of the
 * locator's time); it closes the string when an even number of backslashes stands right before it.
 */
function skipString(text: string, i: number): number {
  for (let from = i + 1; ;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let b = q - 1;
    while (b > i && text.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The end of the value that starts at i (a container up to its closing bracket, or the text's end), -1 for none. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (let k = i; k < text.length; k++) {
      const d = text.charCodeAt(k);
      if (d === QUOTE) k = skipString(text, k) - 1;
      else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
        if (--depth === 0) return k + 1;
      } else if (d === SLASH) {
        const after = skipSpace(text, k);
        if (after > k) k = after - 1;
      }
    }
    return text.length;
  }
  let k = i;
  while (k < text.length && /[\w.+-]/.test(text[k])) k++;
  // (NaN and ±Infinity: Python's words for floats that are not finite, which the readers accept: pythonFloats.ts.)
  return k > i && /^(true|false|null|NaN|-?Infinity|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(text.slice(i, k)) ? k : -1;
}

function keyOf(literal: string): string {
  if (!literal.includes('\\')) return literal.slice(1, -1);
  try { return JSON.parse(literal) as string; } catch { return literal.slice(1, -1); }
}

/**
 * Reads the container's next child (as far as the text reads as JSON); false when there is none. Children are read
 * only as far as a query needs (a key near the top of a run summary is found without skipping its 40 MB of tasks).
 */
function readChild(text: string, c: Container): boolean {
  const close = c.isObject ? CLOSE_OBJECT : CLOSE_ARRAY;
  let i = c.next;
  for (;;) {
    i = skipSpace(text, i);
    const ch = text.charCodeAt(i);
    if (i >= text.length || ch === close) break;
    if (ch === COMMA) { i++; continue; }
    let key = '';
    if (c.isObject) {
      if (ch !== QUOTE) break;
      const keyEnd = skipString(text, i);
      key = keyOf(text.slice(i, keyEnd));
      i = skipSpace(text, keyEnd);
      if (text.charCodeAt(i) !== COLON) break;
      i = skipSpace(text, i + 1);
    }
    const end = valueEnd(text, i);
    if (end < 0) break;
    if (!c.isObject) c.items.push([i, end]);
    else if (!c.keys.has(key)) c.keys.set(key, [i, end]);
    c.next = end;
    return true;
  }
  c.next = -1;
  return false;
}

/** The child at `seg` of the container: read up to it (the first of a key given twice), or to the end. */
function childAt(text: string, c: Container, seg: string | number): [number, number] | undefined {
  if ((typeof seg === 'number') === c.isObject) return undefined; // an index into an object, a key into an array
  const got = () => (typeof seg === 'number' ? c.items[seg] : c.keys.get(seg));
  for (;;) {
    const found = got();
    if (found || c.next < 0 || !readChild(text, c)) return found;
  }
}

/**
 * A JSON text that answers span queries (one per file, queried per problem) without a syntax tree of the whole
 * document: the containers along a queried path are read as far as the query needs (their children's offsets, keys
 * decoded, kept for the next query), every value before the one wanted is skipped by a scan (strings by indexOf). A
 * 40 MB run summary with a few hundred problems costs at most one scan and a few small indexes (none of the tasks'
 * text when the problems are in the keys before them), where a full tree took seconds and hundreds of megabytes.
 * Comments and trailing commas are
 * tolerated, as editors do; a text that stops being JSON answers as far as it reads as JSON.
 */
export class JsonLocator {
  private starts: Int32Array | undefined;
  private readonly containers = new Map<number, Container>();
  /** Where the top value starts; -1 when the text does not start with one. */
  private readonly root: number;

  constructor(private readonly text: string) {
    const at = skipSpace(text, 0);
    // Only a scalar can fail to be a value (a container or string runs to its end or the text's): a container is not
    // scanned here (at 40 MB that scan was a second pass over the text before the first query).
    const c = text.charCodeAt(at);
    this.root = at < text.length && (c === OPEN_OBJECT || c === OPEN_ARRAY || c === QUOTE || valueEnd(text, at) >= 0) ? at : -1;
  }

  /** Zero-based position of an offset. */
  private position(offset: number): { line: number; character: number } {
    this.starts ??= lineStartsOf(this.text);
    const { line, column } = lineColumnFast(this.starts, Math.min(Math.max(offset, 0), this.text.length));
    return { line: line - 1, character: column - 1 };
  }

  private container(offset: number): Container | undefined {
    const c = this.text.charCodeAt(offset);
    if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) return undefined;
    let found = this.containers.get(offset);
    if (!found) {
      found = { isObject: c === OPEN_OBJECT, keys: new Map(), items: [], next: offset + 1 };
      this.containers.set(offset, found);
    }
    return found;
  }

  /**
   * [start, end) of the value spanOf answers for. In a text cut short (the start of a file), an answer whose end is
   * before the cut is the whole text's answer too: everything read for it lies before its end.
   */
  extentOf(jsonPath: readonly (string | number)[]): [number, number] | undefined {
    if (this.root < 0) return undefined;
    let start = this.root;
    let end = -1;
    for (const seg of jsonPath) {
      const c = this.container(start);
      const child = c && childAt(this.text, c, seg);
      if (!child) break;
      [start, end] = child;
    }
    if (end < 0) end = valueEnd(this.text, start);
    return [start, end];
  }

  spanOf(jsonPath: readonly (string | number)[]): Span | undefined {
    const at = this.extentOf(jsonPath);
    if (!at) return undefined;
    const [start, end] = at;
    const s = this.position(start);
    const e = this.position(end);
    return { line: s.line, character: s.character, endLine: e.line, endCharacter: e.character };
  }
}

/** The span of a problem without file content: its line (from its column to the line's end) or the file's start. */
export function lineSpan(p: Problem): Span {
  if (p.line && p.line > 0) {
    const col = p.column && p.column > 0 ? p.column - 1 : 0;
    return { line: p.line - 1, character: col, endLine: p.line - 1, endCharacter: col + 10000 };
  }
  return { line: 0, character: 0, endLine: 0, endCharacter: 0 };
}
