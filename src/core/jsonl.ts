// Streaming JSONL: constant memory whatever the file size (one line at a time), errors that name file and line,
// a partial last line (a run still writing) reported as an incomplete tail rather than an error, long lines handled.
import { DEFAULT_MAX_FILE_BYTES, type FsPort } from './fs/port';
import type { Problem } from './model';
import { MAX_JSON_DEPTH, TooDeepError } from './jsonDepth';
import { duplicateKeyOf, invalidUtf8At, pathText, scanJsonText, startsWithBom, walkParsed } from './honestInput';
import { NON_FINITE_WHY, parseAllowingPythonFloats, type NonFiniteWord } from './pythonFloats';
import { TimeSlice } from './turn';

export interface JsonlLine {
  /** 1-based line number. */
  line: number;
  /** The line's bytes without the newline (and without a trailing \r). */
  bytes: Uint8Array;
  /** false for a last line with no newline after it. */
  terminated: boolean;
  /** The line was longer than the limit: its bytes were dropped as they came (bytes is empty), this is its length. */
  tooLong?: number;
  /** The byte just after the line (after its newline when it has one). */
  end: number;
}

/** A place in a file to read on from: the first byte of a line, and the number of the line before it. */
export interface JsonlPosition {
  byte: number;
  line: number;
}

const NL = 10;
const CR = 13;

/**
 * Yields the lines of a file one at a time; a line longer than a chunk is assembled from its pieces, up to
 * maxLineBytes (default the port's file limit): a longer line is yielded empty with `tooLong` (memory stays bounded
 * on a file with no newline at all). `from`: read on from a line start found by an earlier read (an append-only
 * file that grew), numbering its lines as that read did.
 */
export async function* jsonlLines(fs: FsPort, path: string, chunkSize?: number, maxLineBytes = fs.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  from: JsonlPosition = { byte: 0, line: 0 }): AsyncGenerator<JsonlLine> {
  let pending: Uint8Array[] = [];
  let pendingLen = 0;
  let line = from.line;
  let base = from.byte; // the file offset of the current chunk's first byte
  let dropped = 0; // bytes of the current line thrown away once it passed maxLineBytes
  const take = (tail: Uint8Array): Uint8Array => {
    if (pending.length === 0) return tail;
    const out = new Uint8Array(pendingLen + tail.length);
    let off = 0;
    for (const p of pending) { out.set(p, off); off += p.length; }
    out.set(tail, off);
    pending = [];
    pendingLen = 0;
    return out;
  };
  for await (const chunk of fs.readChunks(path, chunkSize, from.byte)) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      line++;
      if (dropped || pendingLen + nl - start > maxLineBytes) {
        const len = dropped + pendingLen + nl - start;
        pending = []; pendingLen = 0; dropped = 0;
        yield { line, bytes: new Uint8Array(0), terminated: true, tooLong: len, end: base + nl + 1 };
        start = nl + 1;
        continue;
      }
      let bytes = take(chunk.subarray(start, nl));
      if (bytes.length && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
      yield { line, bytes, terminated: true, end: base + nl + 1 };
      start = nl + 1;
    }
    if (start < chunk.length && (dropped || pendingLen + chunk.length - start > maxLineBytes)) {
      dropped += pendingLen + chunk.length - start;
      pending = []; pendingLen = 0;
    } else if (start < chunk.length) {
      // Copy: the chunk's buffer may be reused by the reader.
      const rest = chunk.slice(start);
      pending.push(rest);
      pendingLen += rest.length;
    }
    base += chunk.length;
  }
  if (dropped) {
    yield { line: line + 1, bytes: new Uint8Array(0), terminated: false, tooLong: dropped, end: base };
  } else if (pendingLen > 0) {
    line++;
    yield { line, bytes: take(new Uint8Array(0)), terminated: false, end: base };
  }
}

const decoder = new TextDecoder('utf-8');

function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 32 && b !== 9 && b !== 13) return false;
  }
  return true;
}

export interface JsonlReadResult {
  rows: number;
  lines: number;
  problems: Problem[];
  /** True when the last line had no newline and did not parse: a writer is probably still appending. */
  incompleteTail: boolean;
  /**
   * Where a later read of the same file, grown by appending, goes on from: after the last line with a newline (a last
   * line without one, parsed or not, is read again then).
   */
  resume: JsonlPosition;
}

export interface JsonlReadOptions {
  /**
   * Parses one line's text; defaults to JSON.parse of text nested at most MAX_JSON_DEPTH deep. Throwing marks the line
   * as a parse error.
   */
  parse?: (text: string, bytes: Uint8Array) => unknown;
  /** Stop collecting problems after this many (the count is still reported). Default 200. */
  maxProblems?: number;
  chunkSize?: number;
  /** Longest line read (default the port's file limit). */
  maxLineBytes?: number;
  /** Read on from here (a `resume` of an earlier read) instead of from the start. */
  from?: JsonlPosition;
}

/**
 * Calls `onRow` for every line that parses to a JSON object. Blank lines are skipped. A line that does not parse,
 * or is not an object, is a Problem naming the file and line; an unparsable unterminated last line is an
 * 'incomplete-tail' info problem instead. Never throws for bad content; a file that cannot be read is one Problem.
 * The lines of one read chunk are parsed in slices of time with turns of the event loop between them (a 40,000-line
 * health-verdicts file held the extension host for up to 0.9 s as one chunk's lines were parsed).
 */
export async function readJsonl(
  fs: FsPort,
  path: string,
  onRow: (value: Record<string, unknown>, line: number, terminated: boolean) => void | Promise<void>,
  opts: JsonlReadOptions = {},
): Promise<JsonlReadResult> {
  const maxProblems = opts.maxProblems ?? 200;
  const problems: Problem[] = [];
  let dropped = 0;
  const add = (p: Problem) => { if (problems.length < maxProblems) problems.push(p); else dropped++; };
  let rows = 0;
  let lines = opts.from?.line ?? 0;
  let incompleteTail = false;
  let resume: JsonlPosition = opts.from ?? { byte: 0, line: 0 };
  const slice = new TimeSlice();
  try {
    for await (const { line, bytes, terminated, tooLong, end } of jsonlLines(fs, path, opts.chunkSize, opts.maxLineBytes, opts.from)) {
      lines = line;
      if (slice.due) await slice.yield();
      if (terminated) resume = { byte: end, line };
      if (tooLong !== undefined) {
        add({ file: path, line, severity: 'error', code: 'too-large',
          message: `line ${line} is ${tooLong} bytes, over the ${opts.maxLineBytes ?? fs.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES}-byte limit of one line (harborRuns.maxFileSizeMB): not read` });
        continue;
      }
      let body = bytes;
      if (startsWithBom(body)) {
        // Said on any line: one further down is usually files joined together (cat a.jsonl b.jsonl).
        body = body.subarray(3);
        add({ file: path, line, severity: 'warning', code: 'bom', message: line === 1
          ? `the file starts with a UTF-8 byte order mark: line 1 read without it`
          : `line ${line} starts with a UTF-8 byte order mark (files joined together?): read without it` });
      }
      if (isBlank(body)) continue;
      if (invalidUtf8At(body) >= 0) {
        add({ file: path, line, severity: 'warning', code: 'invalid-utf8',
          message: `line ${line} holds bytes that are not UTF-8: they read as U+FFFD (\ufffd), so its ids and text are not what was written` });
      }
      let value: unknown;
      let text = '';
      // The keys the line writes, from the one pass over its text that also bounds its depth (none: a custom parse).
      let written: number | undefined;
      // Python's words for floats that are not finite, read as null (pythonFloats.ts).
      let words: NonFiniteWord[] = [];
      try {
        text = decoder.decode(body);
        if (opts.parse) value = opts.parse(text, body);
        else {
          const scan = scanJsonText(text, MAX_JSON_DEPTH);
          if (scan.deepAt >= 0) throw new TooDeepError(scan.deepAt);
          ({ value, words } = parseAllowingPythonFloats(text));
          written = scan.writtenKeys;
        }
      } catch (e) {
        if (!terminated) {
          incompleteTail = true;
          add({ file: path, line, severity: 'info', code: 'incomplete-tail',
            message: `line ${line} is incomplete (no newline yet): the file is probably still being written` });
        } else {
          add({ file: path, line, severity: 'error', code: 'parse-error',
            message: `line ${line} is not valid JSON: ${(e as Error).message}` });
        }
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        add({ file: path, line, severity: 'error', code: 'not-object', message: `line ${line} is not a JSON object` });
        continue;
      }
      // One walk of the parsed row: the keys it kept (a key written twice is kept once) and numbers beyond a double.
      const walked = walkParsed(value, 5);
      const dup = duplicateKeyOf(text, value, written === undefined ? undefined : { written, kept: walked.keptKeys });
      if (dup) {
        add({ file: path, line, severity: 'warning', code: 'duplicate-key',
          message: `line ${line} gives the key "${dup.key.slice(0, 200)}" twice in one object: the last one is read` });
      }
      if (words.length) {
        add({ file: path, line, severity: 'warning', code: 'non-finite-number',
          message: `line ${line} holds ${words[0].word}${words.length > 1 ? ` and ${words.length - 1} more such word${words.length > 2 ? 's' : ''}` : ''}: ${NON_FINITE_WHY}` });
      }
      for (const at of walked.outOfRange) {
        add({ file: path, line, severity: 'warning', code: 'number-out-of-range',
          message: `line ${line} ${pathText(at)} is a number beyond what a double holds (it reads as Infinity): read as no value` });
      }
      rows++;
      await onRow(value as Record<string, unknown>, line, terminated);
    }
  } catch (e) {
    add({ file: path, severity: 'error', code: 'unreadable', message: `cannot read ${path}: ${(e as Error).message}` });
  }
  if (dropped > 0) {
    problems.push({ file: path, severity: 'warning', code: 'more-problems', message: `${dropped} more problems in ${path} not listed` });
  }
  return { rows, lines, problems, incompleteTail, resume };
}
