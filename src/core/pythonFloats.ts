// Python's json module writes a float that is not finite as the bare word NaN, Infinity or -Infinity (its default,
// `allow_nan=True`): not JSON, so JSON.parse refuses the whole text. A training loop's loss that became NaN, or a
// reward a verifier could not compute, then cost a reader the whole line or file. A text that fails to parse is
// looked at again: if it parses once each such word in a value's place is read as null, it is read that way, and the
// caller says where the words were (read as no value, as numbers beyond a double already are). Only ever tried on a
// text JSON.parse refused, so a valid file costs nothing more.

/** Why such a word is read as no value, as the readers' warnings say it. */
export const NON_FINITE_WHY = "not JSON (Python's json module writes it for a float that is not finite): read as no value";

/** A word Python writes for a float that is not finite, and its offset in the text. */
export interface NonFiniteWord { word: 'NaN' | 'Infinity' | '-Infinity'; offset: number }

const WORDS = ['NaN', 'Infinity', '-Infinity'] as const;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Whether a value may start at `i`: after `:`, `,` or `[` (spaces between), or at the start. */
function valuePlace(text: string, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && isSpace(text.charCodeAt(k))) k--;
  if (k < 0) return true;
  const c = text.charCodeAt(k);
  return c === 0x3a || c === 0x2c || c === 0x5b || (k === 0 && c === 0xfeff);
}

/** Whether a value may end at `i`: the text's end, a space, `,`, `]` or `}`. */
function valueEnds(text: string, i: number): boolean {
  if (i >= text.length) return true;
  const c = text.charCodeAt(i);
  return isSpace(c) || c === 0x2c || c === 0x5d || c === 0x7d;
}

/**
 * The words NaN, Infinity and -Infinity standing where a value goes (never inside a string), and the text with each
 * replaced by null. No words: undefined.
 */
export function nonFiniteWords(text: string): { words: NonFiniteWord[]; text: string } | undefined {
  const words: NonFiniteWord[] = [];
  const pieces: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // a string: skipped to its closing quote
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      continue;
    }
    if (c !== 0x4e && c !== 0x49 && c !== 0x2d) continue; // N, I, -
    const word = WORDS.find((w) => text.startsWith(w, i));
    if (!word || !valuePlace(text, i) || !valueEnds(text, i + word.length)) continue;
    words.push({ word, offset: i });
    pieces.push(text.slice(from, i), 'null');
    from = i + word.length;
    i = from - 1;
  }
  if (words.length === 0) return undefined;
  pieces.push(text.slice(from));
  return { words, text: pieces.join('') };
}

/**
 * JSON.parse, or, when it refuses the text only because of Python's words for floats that are not finite, the value
 * with each read as null and where they were. Any other fault throws JSON.parse's own error.
 */
export function parseAllowingPythonFloats(text: string): { value: unknown; words: NonFiniteWord[] } {
  try {
    return { value: JSON.parse(text), words: [] };
  } catch (e) {
    const py = nonFiniteWords(text);
    if (!py) throw e;
    try {
      return { value: JSON.parse(py.text), words: py.words };
    } catch {
      throw e;
    }
  }
}

/** The offset in the original text of an offset in the text with the words replaced by null (nonFiniteWords). */
export function originalOffset(words: readonly NonFiniteWord[], replaced: number): number {
  let shift = 0; // how much longer the replaced text is so far
  for (const w of words) {
    const at = w.offset + shift;
    if (replaced < at) break;
    if (replaced < at + 4) return w.offset; // inside the null that stands for the word
    shift += 4 - w.word.length;
  }
  return replaced - shift;
}

/** "NaN at line 3, column 12" for the first few words, with how many more (lines and columns 1-based, one pass). */
export function describeWords(text: string, words: readonly NonFiniteWord[], max = 3): string {
  const parts: string[] = [];
  let line = 1;
  let lineStart = 0;
  let at = 0;
  for (const w of words.slice(0, max)) {
    for (; at < w.offset; at++) if (text.charCodeAt(at) === 10) { line++; lineStart = at + 1; }
    parts.push(`${w.word} at line ${line}, column ${w.offset - lineStart + 1}`);
  }
  const more = words.length - parts.length;
  return `${parts.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
