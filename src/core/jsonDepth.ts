// Nesting depth of JSON text, measured without parsing (a linear byte walk), so a document nested 100,000 deep
// becomes one Problem for its file instead of a stack overflow in whatever walks the parsed value (a schema check,
// JSON.stringify, the position finder): JSON.parse itself copes, everything recursive after it does not.

/** Deeper than this is refused: real run files nest a few tens deep; recursive walkers are safe far beyond it. */
export const MAX_JSON_DEPTH = 1000;

/**
 * The offset of the first bracket that opens nesting level max + 1, or -1 when the text never nests deeper than
 * max. Brackets inside strings do not count. Works on text (string) or bytes (UTF-8).
 */
export function depthExceededAt(text: string | Uint8Array, max = MAX_JSON_DEPTH, start = 0, end = text.length): number {
  let depth = 0;
  let inString = false;
  const bytes = typeof text !== 'string';
  for (let i = start; i < end; i++) {
    const c = bytes ? (text as Uint8Array)[i] : (text as string).charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) { if (++depth > max) return i; } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

export class TooDeepError extends SyntaxError {
  constructor(readonly offset: number, readonly max = MAX_JSON_DEPTH) {
    super(`nested more than ${max} levels deep at offset ${offset} (not read)`);
    this.name = 'TooDeepError';
  }
}

/** JSON.parse, refusing text nested deeper than MAX_JSON_DEPTH (a TooDeepError, which is a SyntaxError). */
export function parseJsonBounded(text: string): unknown {
  const at = depthExceededAt(text);
  if (at >= 0) throw new TooDeepError(at);
  return JSON.parse(text);
}
