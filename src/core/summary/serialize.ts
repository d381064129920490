// The bytes of a summary: stable key order (the documented layout; unknown keys after the known ones), 2-space indent,
// trailing newline, UTF-8 (non-ASCII kept as is; undefined values left out). Rewards are written as floats the way Python writes them (`1.0`,
// not `1`), so a document matches one written by NeMo Gym's own writer byte for byte. The CLI and the VS Code command
// both write exactly serializeSummary(document).
import type { RunSummaryDocument } from '../schemas/runSummary';
import { FILE_KEYS, REPEAT_KEYS, TOP_KEYS } from './layout';
import { allocateBytes, NodeBuffer } from '../bytes';
import { SLICE_MS, TimeSlice } from '../turn';

const DATASET_KEYS = ['source', 'name', 'version', 'folder', 'digests'];
const TASK_KEYS = ['task_id', 'task_index', 'repeats'];
const INPUT_KEYS = ['digests', 'metadata'];

function ordered(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  // No prototype: a key such as "valueOf" or "__proto__" is the document's own, not something inherited.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of keys) if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined) out[k] = o[k];
  for (const k of Object.keys(o)) if (!(k in out) && o[k] !== undefined) out[k] = o[k];
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether `o` is a plain object whose own keys already come in the layout's order, none undefined: JSON.stringify of
 * it then writes what it writes of ordered(o) (the writer builds every repeat so), and no copy is made. A copy
 * (ordered's prototype-free object) costs more to build and to stringify than the object itself.
 */
function inOrder(o: Record<string, unknown>, keys: readonly string[]): boolean {
  if (Object.getPrototypeOf(o) !== Object.prototype) return false;
  let at = 0;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) return false;
    while (at < keys.length && keys[at] !== k) at++;
    if (at === keys.length || o[k] === undefined) return false;
    at++;
  }
  return true;
}

function orderRepeat(r: unknown): unknown {
  if (!isObj(r)) return r;
  const input = r.input;
  if (inOrder(r, REPEAT_KEYS) && (!isObj(input) || inOrder(input, INPUT_KEYS))) return r;
  const rep = ordered(r, REPEAT_KEYS);
  if (isObj(rep.input)) rep.input = ordered(rep.input, INPUT_KEYS);
  return rep;
}

function orderTask(t: unknown): unknown {
  if (!isObj(t)) return t;
  const task = ordered(t, TASK_KEYS);
  if (Array.isArray(task.repeats)) task.repeats = task.repeats.map(orderRepeat);
  return task;
}

/**
 * Python's float repr (`1.0`, `0.25`, `1e-05`, `1e+16`): the shortest digits that read back as the same double (as
 * JavaScript's), in scientific form when the decimal exponent is below -4 or at least 16 (JavaScript switches at -7
 * and 21), with a two-digit exponent at least, and `.0` on an integer.
 */
export function pyFloat(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  const [digits, exp] = x.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 16) return `${digits}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

// `"reward": <number>` as JSON.stringify writes it (one per line with a 2-space indent); strings never match. What
// fixRewards rewrites is what `text.replace(/^(\s*"reward": )(-?\d+(?:\.\d+)?(?:e[+-]\d+)?)(,?)$/gm, …)` would,
// found with indexOf: that regex, with a callback per match, took about half of the serializer's time.
const REWARD_KEY = '"reward": ';

const isDigit = (c: number) => c >= 48 && c <= 57;
/** A LineTerminator (where a multiline regex's ^ and $ match). */
const isLineEnd = (c: number) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
/** What a regex's \s matches. */
const isSpace = (c: number) => (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
  || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/** Whether only whitespace, reaching back to a line start, comes before `at` (the regex's ^\s*). */
function opensLine(text: string, at: number): boolean {
  for (let k = at - 1; k >= 0; k--) {
    const c = text.charCodeAt(k);
    if (isLineEnd(c)) return true;
    if (!isSpace(c)) return false;
  }
  return true;
}

/** The end of the number JSON.stringify wrote at `at` (-?\d+(\.\d+)?(e[+-]\d+)?), or -1 when none is there. */
function numberEnd(text: string, at: number): number {
  let i = at;
  if (text.charCodeAt(i) === 45) i++;
  const d0 = i;
  while (isDigit(text.charCodeAt(i))) i++;
  if (i === d0) return -1;
  if (text.charCodeAt(i) === 46) {
    const f0 = ++i;
    while (isDigit(text.charCodeAt(i))) i++;
    if (i === f0) return -1;
  }
  if (text.charCodeAt(i) === 101) {
    const s = text.charCodeAt(i + 1);
    if (s !== 43 && s !== 45) return -1;
    const e0 = i += 2;
    while (isDigit(text.charCodeAt(i))) i++;
    if (i === e0) return -1;
  }
  return i;
}

/** An integer JSON.stringify wrote in plain digits (below 1e16, where Python writes it plainly too): `<digits>.0`. */
function pyNumber(num: string): string {
  const c = num.charCodeAt(num.length - 1);
  if (num.length <= 16 && isDigit(c) && !num.includes('.') && !num.includes('e')) return `${num}.0`;
  return pyFloat(Number(num));
}

function fixRewards(text: string): string {
  let at = text.indexOf(REWARD_KEY);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  for (; at >= 0; at = text.indexOf(REWARD_KEY, at + REWARD_KEY.length)) {
    if (!opensLine(text, at)) continue;
    const n0 = at + REWARD_KEY.length;
    const n1 = numberEnd(text, n0);
    if (n1 < 0) continue;
    const after = text.charCodeAt(n1) === 44 ? n1 + 1 : n1;
    if (after < text.length && !isLineEnd(text.charCodeAt(after))) continue;
    out += text.slice(from, n0) + pyNumber(text.slice(n0, n1));
    from = n1;
  }
  return from === 0 ? text : out + text.slice(from);
}

const TASKS_PER_PIECE = 8;

/**
 * The document's text in pieces: the head (every key but `tasks`), then one piece per 8 tasks, then the tail. Each
 * piece is JSON.stringify's (native, fast) with the rewards rewritten, so a 40k-repeat document never needs one
 * giant intermediate string. `tasks` is written last; keys unknown to the layout come before it.
 */
function* pieces(doc: RunSummaryDocument): Generator<string> {
  const top = ordered(doc as Record<string, unknown>, TOP_KEYS);
  const tasks = Array.isArray(top.tasks) ? top.tasks : [];
  delete top.tasks;
  if (isObj(top.dataset)) top.dataset = ordered(top.dataset, DATASET_KEYS);
  if (isObj(top.files)) top.files = ordered(top.files, FILE_KEYS);
  const head = JSON.stringify(top, null, 2);
  const open = head === '{}' ? '{\n' : `${head.slice(0, -2)},\n`;
  if (!tasks.length) { yield `${open}  "tasks": []\n}\n`; return; }
  yield `${open}  "tasks": [\n`;
  // Tasks in batches, each stringified as `[[…batch]]`: the inner array's items come out indented by four spaces,
  // exactly where the document puts them, so the text is not re-indented (no replace over every newline); the
  // wrapper's lines are cut off. Eight tasks a piece measured fastest (larger arrays stringify slower per task).
  for (let i = 0; i < tasks.length; i += TASKS_PER_PIECE) {
    const batch = tasks.slice(i, i + TASKS_PER_PIECE).map((t) => (t === undefined ? null : orderTask(t)));
    // "[\n  [\n" … "\n  ]\n]"
    const body = JSON.stringify([batch], null, 2).slice(6, -6);
    yield `${fixRewards(body)}${i + TASKS_PER_PIECE < tasks.length ? ',\n' : '\n'}`;
  }
  yield '  ]\n}\n';
}

export function serializeSummary(doc: RunSummaryDocument): string {
  return [...pieces(doc)].join('');
}

/**
 * The UTF-8 bytes of serializeSummary(doc), built piece by piece (what the writer writes; the async form gives the
 * event loop a turn whenever a slice of `sliceMs` has passed, so the extension host is never blocked for long). The pieces are
 * encoded into one buffer sized from the first task (the tasks are alike), grown when short: a 40k-repeat document
 * costs about its own size once, not a list of pieces plus their concatenation.
 */
export function serializeSummaryBytes(doc: RunSummaryDocument): Uint8Array {
  const sink = new ByteSink(doc.tasks?.length ?? 0);
  for (const p of pieces(doc)) sink.push(p);
  return sink.bytes();
}

export async function serializeSummaryBytesAsync(doc: RunSummaryDocument, sliceMs = SLICE_MS, signal?: AbortSignal): Promise<Uint8Array> {
  const sink = new ByteSink(doc.tasks?.length ?? 0);
  const slice = new TimeSlice(sliceMs);
  for (const p of pieces(doc)) {
    sink.push(p);
    if (slice.due) {
      await slice.yield();
      if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
    }
  }
  return sink.bytes();
}

/** Encodes `text` into `buf` at `at` (room for text.length * 3 bytes there); returns the bytes written. */
function encodeAt(buf: Uint8Array, at: number, text: string, enc: TextEncoder): number {
  // Node's Buffer#write is a direct native call (TextEncoder#encodeInto costs a view per call and is slower).
  // With its length given (the most the piece can take): Buffer#write without one costs in proportion to the room left.
  if (NodeBuffer && NodeBuffer.isBuffer(buf)) return buf.write(text, at, text.length * 3, 'utf8');
  return enc.encodeInto(text, buf.subarray(at)).written;
}

/**
 * The bytes of serializeSummary(doc) in chunks of about `chunkBytes`, all in one buffer that is reused: a chunk is
 * valid until the next one is asked for (FsPort.writeFileAtomicChunks writes each before asking). A 40k-repeat
 * document is then written without its 38 MB ever being in memory at once: on a machine where each fresh page of
 * memory costs tens of microseconds to map, that buffer alone cost the writer ~0.3 s of CPU time. Gives the event
 * loop a turn whenever a slice of `sliceMs` has passed, as serializeSummaryBytesAsync.
 */
export async function* serializeSummaryChunks(doc: RunSummaryDocument, sliceMs = SLICE_MS, signal?: AbortSignal,
  chunkBytes = 1 << 20): AsyncGenerator<Uint8Array> {
  let buf = allocateBytes(chunkBytes);
  let used = 0;
  const enc = new TextEncoder();
  const slice = new TimeSlice(sliceMs);
  for (const p of pieces(doc)) {
    const most = p.length * 3;
    if (used > 0 && used + most > buf.length) { yield buf.subarray(0, used); used = 0; }
    // A piece larger than the buffer (a head with thousands of digests): a buffer of its size, kept from then on.
    if (most > buf.length) buf = allocateBytes(most);
    used += encodeAt(buf, used, p, enc);
    if (slice.due) {
      await slice.yield();
      if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
    }
  }
  if (used > 0) yield buf.subarray(0, used);
}

class ByteSink {
  private buf: Uint8Array = new Uint8Array(0);
  private used = 0;
  private pieces = 0;
  private readonly enc = new TextEncoder();

  constructor(private readonly tasks: number) {}

  push(text: string): void {
    // The head, then the first task: their size times the number of tasks is the estimate.
    if (++this.pieces === 2) this.reserve(Math.ceil(this.used + text.length * 1.25 * (this.tasks + 1)) + 4096);
    // At most 3 bytes per UTF-16 unit: with that much room one call encodes the whole piece.
    if (this.buf.length - this.used < text.length * 3) {
      this.reserve(Math.max(Math.ceil(this.buf.length * 1.5), this.used + text.length * 3 + 4096));
    }
    this.used += encodeAt(this.buf, this.used, text, this.enc);
  }

  private reserve(size: number): void {
    if (size <= this.buf.length) return;
    const next = allocateBytes(size);
    next.set(this.buf.subarray(0, this.used));
    this.buf = next;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.used);
  }
}
