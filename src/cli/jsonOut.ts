// Writes a document exactly as `JSON.stringify(value, null, 2)` would, in pieces: a 10,000-trial job is a 50 MB
// document, and one string of it (plus its bytes on the way out) would double the peak memory of `inspect --json`.
// Containers near the top are walked by hand; anything deeper is stringified whole and re-indented.
import type { Writable } from 'node:stream';
import { safeJson } from '../core/terminalText';

/** Containers this deep are walked by hand (document → runs → run → tasks → task); deeper ones stringified whole. */
const WALK_DEPTH = 5;
const FLUSH_CHARS = 1 << 20;

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

/** Writes `value` as JSON.stringify(value, null, 2) + '\n' to `out`, in chunks, waiting when the stream is full. */
export async function writeJson(out: Writable, value: unknown): Promise<void> {
  let buf: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!buf.length) return;
    // C1 and bidi controls from the run, which JSON.stringify leaves raw, escaped as \uXXXX (same JSON, safe terminal).
    const chunk = safeJson(buf.join(''));
    buf = [];
    size = 0;
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  for (const piece of jsonPieces(value)) {
    buf.push(piece);
    size += piece.length;
    if (size >= FLUSH_CHARS) await flush();
  }
  buf.push('\n');
  await flush();
}
