// Writes a document exactly as `JSON.stringify(value, null, 2)` would, in pieces: a 10,000-trial job is a 50 MB
// document, and one string of it (plus its bytes on the way out) would double the peak memory of `inspect --json`.
// Containers near the top are walked by hand; anything deeper is stringified whole and re-indented.
import type { Writable } from 'node:stream';
import { hasRawUnsafe, safeJson } from '../core/terminalText';
import { yieldTurn } from '../core/turn';

/** Containers this deep are walked by hand (document → runs → run → tasks → task); deeper ones stringified whole. */
const WALK_DEPTH = 5;
const FLUSH_BYTES = 1 << 20;

function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/**
 * JSON.stringify(value, null, 2) with every line after the first indented by `indent` (a multiple of two spaces): the
 * value stringified inside as many one-element arrays as `indent` has levels, and those arrays' brackets cut off, so
 * the native stringify writes the indentation (no second pass over, and copy of, each task's text).
 */
function indented(value: unknown, indent: string): string {
  const levels = indent.length >> 1;
  if (levels === 0 || value === null || typeof value !== 'object' || indent.length !== levels * 2) {
    const s = JSON.stringify(value, null, 2);
    return indent && s.includes('\n') ? s.replace(/\n/g, `\n${indent}`) : s;
  }
  let wrapped: unknown = value;
  for (let i = 0; i < levels; i++) wrapped = [wrapped];
  const s = JSON.stringify(wrapped, null, 2);
  // '[\n  ' + '[\n    ' + … before the value, '\n  ]' + '\n]' after it.
  return s.slice(2 * levels + levels * (levels + 1), s.length - (2 * levels + levels * (levels - 1)));
}

/** The pieces of JSON.stringify(value, null, 2), in order (value is plain data: no toJSON, no cycles). */
export function* jsonPieces(value: unknown, indent = '', depth = 0): Generator<string> {
  if (value === null || typeof value !== 'object' || depth >= WALK_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield indented(value, indent);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) { yield '[]'; return; }
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i ? ',' : ''}\n${inner}`;
      const v = value[i];
      if (skipped(v)) yield 'null';
      else yield* jsonPieces(v, inner, depth + 1);
    }
    yield `\n${indent}]`;
    return;
  }
  const keys = Object.keys(value).filter((k) => !skipped((value as Record<string, unknown>)[k]));
  if (keys.length === 0) { yield '{}'; return; }
  yield '{';
  for (let i = 0; i < keys.length; i++) {
    yield `${i ? ',' : ''}\n${inner}${JSON.stringify(keys[i])}: `;
    yield* jsonPieces((value as Record<string, unknown>)[keys[i]], inner, depth + 1);
  }
  yield `\n${indent}}`;
}

/**
 * Writes `value` as JSON.stringify(value, null, 2) + '\n' to `out`, encoded piece by piece into byte chunks (no
 * joined string per chunk to flatten and encode again), waiting when the stream is full.
 */
export async function writeJson(out: Writable, value: unknown): Promise<void> {
  let chunk = Buffer.allocUnsafe(FLUSH_BYTES);
  let used = 0;
  let flushed = false;
  /** Hands `data` to the stream; false when the stream asks to wait for 'drain'. */
  const send = (data: Buffer | string): boolean => out.write(data);
  const flush = (): boolean => {
    if (!used) return true;
    const full = chunk.subarray(0, used);
    chunk = Buffer.allocUnsafe(FLUSH_BYTES);
    used = 0;
    flushed = true;
    return send(full);
  };
  /** Adds a piece; false when the stream asks to wait. */
  const put = (piece: string): boolean => {
    // C1 and bidi controls from the run, which JSON.stringify leaves raw, escaped as \uXXXX (same JSON, safe terminal).
    const text = hasRawUnsafe(piece) ? safeJson(piece) : piece;
    // Up to 3 bytes per UTF-16 unit: a piece that may not fit goes out after what is waiting (alone when it is big).
    if (used + text.length * 3 <= FLUSH_BYTES) {
      used += chunk.write(text, used);
      return true;
    }
    const flushed = flush();
    if (text.length * 3 > FLUSH_BYTES) return send(text) && flushed;
    used += chunk.write(text, used);
    return flushed;
  };
  const drained = () => new Promise<void>((resolve) => out.once('drain', resolve));
  // A turn of the event loop after each chunk handed on: V8's collection tasks (and a stream's callbacks) run in turns,
  // and a document written synchronously (stdout a file) left its chunks' garbage for one late collection without
  // them: peak RSS of `inspect --json` on a 10,000-trial job 246–266 MiB (median 261) → 245–261 (median 248), five
  // pairs, the time the same.
  for (const piece of jsonPieces(value)) {
    if (!put(piece)) await drained();
    else if (flushed) { flushed = false; await yieldTurn(); }
  }
  if (!put('\n') || !flush()) await drained();
}
