// What the trajectory loader says about a file's bytes and text that a parse alone would hide or leave vague
// (docs/untrusted-runs.md#honest-inputs): where a file that is not JSON stops being JSON (line and column, as every
// other file of a run is reported: JSON.parse's own message gives only a character position on Node 20), bytes that
// are not UTF-8 (decoded as U+FFFD: the message shown is not what the agent wrote) and a byte order mark.
import { visit } from 'jsonc-parser';
import { invalidUtf8At, lineOfByte, startsWithBom } from '../honestInput';

/** 1-based line and column of a character offset in text. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) { line++; lineStart = i + 1; }
  return { line, column: end - lineStart + 1 };
}

/** The offset of the first fault a strict JSON scan finds in text (its length when it finds none). */
function firstFaultAt(text: string): number {
  let at = -1;
  visit(text, { onError: (_code, offset) => { if (at < 0) at = offset; } }, { disallowComments: true, allowTrailingComma: false });
  return at < 0 ? text.length : at;
}

/**
 * "not valid JSON at line L, column C: <JSON.parse's message>" for the error JSON.parse threw on `text`. Its
 * "position N" is a character offset into `text`; a message without one ("Unexpected token 'o', …", "Unexpected end
 * of JSON input") is placed where a strict scan finds the first fault. Newer V8 adds its own "(line L column C)",
 * left out here as said once already.
 */
export function notJsonMessage(text: string, e: unknown): string {
  const { line, column, why } = jsonFault(text, e);
  return `not valid JSON at line ${line}, column ${column}: ${why}`;
}

/**
 * Where in `text` the error a JSON parse threw on it is (1-based line and column), and its message without newer
 * V8's "(line L column C)": its "at position N", or (jsonDepth.ts's TooDeepError) "at offset N", else the first
 * fault a strict scan finds.
 */
export function jsonFault(text: string, e: unknown): { line: number; column: number; why: string } {
  const why = ((e as Error)?.message ?? String(e)).replace(/ \(line \d+ column \d+\)$/, '');
  const m = /at (?:position|offset) (\d+)/.exec(why);
  return { ...lineColumn(text, m ? Number(m[1]) : firstFaultAt(text)), why };
}

/** Warnings about the bytes of a trajectory file (the first `avail` of `buf`): a byte order mark, bytes not UTF-8. */
export function byteWarnings(buf: Uint8Array, avail = buf.length): string[] {
  const out: string[] = [];
  if (startsWithBom(buf)) out.push('the file starts with a UTF-8 byte order mark: read without it');
  const bad = invalidUtf8At(buf, 0, avail);
  if (bad >= 0) {
    const line = lineOfByte(buf, bad);
    out.push(`the file holds bytes that are not UTF-8 (first at line ${line}): they read as U+FFFD (\ufffd), so text there is not what was written`);
  }
  return out;
}
