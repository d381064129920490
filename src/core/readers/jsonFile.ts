// Reading one JSON document for a reader: never throws, a file that does not parse becomes a Problem with the
// line and column of the error, and any JSON path inside the document can be turned into a line for a Problem.
import { parse as parseLenient, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { isReadRefused, type FileRead, type FsPort } from '../fs/port';
import { MAX_JSON_DEPTH } from '../jsonDepth';
import { JsonLocator } from '../jsonLocator';
import type { Problem, Severity } from '../model';
import { duplicateKeyOf, invalidUtf8At, lineOfByte, pathText, scanJsonText, walkParsed } from '../honestInput';
import { describeWords, NON_FINITE_WHY, nonFiniteWords, originalOffset } from '../pythonFloats';

export interface JsonDocument {
  path: string;
  text: string;
  /** undefined when the file could not be read or does not parse. */
  value: unknown;
  ok: boolean;
  problems: Problem[];
  /** Built on the first problem placed by JSON path. */
  locator?: JsonLocator;
  /**
   * Set when the text is elsewhere (a summary parsed on a worker, nemo/summaryDoc.ts): problemAt leaves the line
   * out, and the reader places its problems at the end in one request (placeDeferred).
   */
  placeLater?: (paths: (string | number)[][]) => Promise<({ line: number; column: number } | undefined)[]>;
  /** The text ends before its JSON does (parseJsonText's cutOff): not valid JSON, said as cut off. */
  cutOff?: true;
}

/** 1-based line and column of a character offset in text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) { line++; lineStart = i + 1; }
  }
  return { line, column: end - lineStart + 1 };
}

/** The end of `text` without its trailing whitespace. */
function endOfContent(text: string): number {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return end;
}

/**
 * Parses JSON text strictly; on failure returns the offset of the first error. `cutOff`: the text ends before its JSON
 * does (an open string, object or array at the end of the file: a write that stopped part-way, or a partial copy);
 * its offset is then where the content ends.
 */
export function parseJsonText(text: string): { value?: unknown; error?: { offset: number; message: string; cutOff?: true } } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { value: JSON.parse(body) };
  } catch (e) {
    const errors: ParseError[] = [];
    parseLenient(body, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    const shift = body === text ? 0 : 1;
    const end = endOfContent(body);
    if (errors.length) {
      const first = errors[0];
      const cutOff = end > 0 && (first.offset >= end || printParseErrorCode(first.error) === 'UnexpectedEndOfString');
      const message = `${printParseErrorCode(first.error)} (${(e as Error).message})`;
      return { error: cutOff ? { offset: end + shift, message, cutOff: true } : { offset: first.offset + shift, message } };
    }
    const m = /position (\d+)/.exec((e as Error).message);
    return { error: { offset: m ? Number(m[1]) + shift : 0, message: (e as Error).message } };
  }
}

/**
 * What JSON.parse would have done silently, said as warnings on a parsed document (docs/untrusted-runs.md#honest-
 * inputs): a byte order mark, bytes that are not UTF-8 (`badUtf8Line`, found by the caller on the bytes), a key given
 * twice in one object, numbers beyond a double (replaced by null in `doc.value`).
 */
function honestyProblems(doc: JsonDocument, what: string, writtenKeys: number, badUtf8Line?: number): void {
  const text = doc.text;
  if (text.charCodeAt(0) === 0xfeff) {
    doc.problems.push({ file: doc.path, line: 1, column: 1, severity: 'warning', code: 'bom',
      message: `the ${what} starts with a UTF-8 byte order mark: read without it` });
  }
  if (badUtf8Line !== undefined) {
    doc.problems.push({ file: doc.path, line: badUtf8Line, severity: 'warning', code: 'invalid-utf8',
      message: `the ${what} holds bytes that are not UTF-8 (first at line ${badUtf8Line}): they read as U+FFFD (\ufffd), so ids and text there are not what was written` });
  }
  const walked = walkParsed(doc.value);
  const dup = duplicateKeyOf(text, doc.value, { written: writtenKeys, kept: walked.keptKeys });
  if (dup) {
    const { line, column } = lineColumnAt(text, dup.offset);
    doc.problems.push({ file: doc.path, line, column, severity: 'warning', code: 'duplicate-key',
      message: `the ${what} gives the key "${dup.key.slice(0, 200)}" twice in one object (again at line ${line}): the last one is read` });
  }
  for (const at of walked.outOfRange) {
    doc.problems.push(problemAt(doc, at, 'warning', 'number-out-of-range',
      `the ${what} ${pathText(at)} is a number beyond what a double holds (it reads as Infinity): read as no value`));
  }
}

export function parseJsonDocument(path: string, text: string, what = 'file', badUtf8Line?: number): JsonDocument {
  // Nested too deep for the recursive walkers after the parse (schema, position finder): this file only is lost.
  const scan = scanJsonText(text, MAX_JSON_DEPTH);
  const deep = scan.deepAt;
  if (deep >= 0) {
    const { line, column } = lineColumnAt(text, deep);
    return {
      path, text, value: undefined, ok: false,
      problems: [{ file: path, line, column, severity: 'error', code: 'too-deep',
        message: `the ${what} nests more than ${MAX_JSON_DEPTH} levels deep at line ${line}, column ${column}: not read` }],
    };
  }
  let { value, error } = parseJsonText(text);
  // Python's words for floats that are not finite (pythonFloats.ts): read as null, and said.
  const py = error ? nonFiniteWords(text) : undefined;
  if (py) {
    const again = parseJsonText(py.text);
    // Another fault: said where it is in the file (past the words), not at the first word.
    ({ value, error } = again.error ? { value: undefined, error: { ...again.error, offset: originalOffset(py.words, again.error.offset) } } : again);
  }
  if (error) {
    const { line, column } = lineColumnAt(text, error.offset);
    return {
      path, text, value: undefined, ok: false,
      problems: [{ file: path, line, column, severity: 'error', code: 'parse-error',
        message: error.cutOff
          ? `the ${what} is cut off at line ${line}, column ${column}: the file ends before its JSON does (a write that stopped part-way or is still going, or a partial copy), so it is not valid JSON`
          : `the ${what} is not valid JSON at line ${line}, column ${column}: ${error.message}` }],
      ...(error.cutOff ? { cutOff: true as const } : {}),
    };
  }
  const doc: JsonDocument = { path, text, value, ok: true, problems: [] };
  if (py) {
    const { line, column } = lineColumnAt(text, py.words[0].offset);
    doc.problems.push({ file: path, line, column, severity: 'warning', code: 'non-finite-number',
      message: `the ${what} holds ${describeWords(text, py.words)}: ${NON_FINITE_WHY}` });
  }
  honestyProblems(doc, what, scan.writtenKeys, badUtf8Line);
  return doc;
}

/** Reads and parses a JSON file; a missing or unreadable file is a Problem (severity chosen by the caller). */
export async function readJsonDocument(fs: FsPort, path: string, what = 'file', missingSeverity: Severity = 'error'): Promise<JsonDocument> {
  let text: string;
  let badUtf8Line: number | undefined;
  try {
    const bytes = await fs.readFile(path);
    const bad = invalidUtf8At(bytes);
    if (bad >= 0) badUtf8Line = lineOfByte(bytes, bad);
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes); // the BOM kept: parseJsonText drops it, and says so
  } catch (e) {
    const gone = !isReadRefused(e) && (await fs.stat(path)) === undefined;
    return {
      path, text: '', value: undefined, ok: false,
      problems: [{ file: path, severity: gone ? missingSeverity : 'error', code: gone ? 'missing-file' : isReadRefused(e) ? e.code : 'unreadable',
        message: gone ? `the ${what} is not on disk` : `cannot read the ${what}: ${(e as Error).message}` }],
    };
  }
  return parseJsonDocument(path, text, what, badUtf8Line);
}

/** A JSON document from a file read in a batch (FsPort.gather): the same answers readJsonDocument gives. */
export function jsonDocumentOf(path: string, read: FileRead, what = 'file', missingSeverity: Severity = 'error'): JsonDocument {
  if (read.text !== undefined) return parseJsonDocument(path, read.text, what, read.badUtf8Line);
  const problem: Problem = read.missing
    ? { file: path, severity: missingSeverity, code: 'missing-file', message: `the ${what} is not on disk` }
    : read.tooBig !== undefined
      ? { file: path, severity: missingSeverity, code: 'too-big',
        message: `the ${what} is ${formatBytes(read.tooBig)}, more than a reader reads of it: not read` }
      : { file: path, severity: missingSeverity, code: 'unreadable', message: `cannot read the ${what}: ${read.error}` };
  return { path, text: '', value: undefined, ok: false, problems: [problem] };
}

function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

/** The 1-based line and column of the value at jsonPath (or of its closest existing parent): the one JsonLocator. */
export function locate(doc: JsonDocument, jsonPath: (string | number)[]): { line: number; column: number } | undefined {
  if (!doc.ok || doc.placeLater) return undefined;
  doc.locator ??= new JsonLocator(doc.text);
  const span = doc.locator.spanOf(jsonPath);
  return span ? { line: span.line + 1, column: span.character + 1 } : undefined;
}

/** A Problem about the value at jsonPath in doc, with its line and column filled in. */
export function problemAt(doc: JsonDocument, jsonPath: (string | number)[], severity: Severity, code: string, message: string): Problem {
  const where = locate(doc, jsonPath);
  return { file: doc.path, ...(where ?? {}), jsonPath, severity, code, message };
}

export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  errors?: readonly (readonly IssueLike[])[];
}

/**
 * A union's issue names only the union; its branches say what is wrong inside. The branch that got deepest into
 * the value is the one the producer meant (a list of tasks with one bad reward, not "expected an object").
 */
function flattenIssues(issues: readonly IssueLike[], prefix: readonly PropertyKey[] = []): IssueLike[] {
  const out: IssueLike[] = [];
  for (const issue of issues) {
    const at = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors?.length) {
      const depth = (b: readonly IssueLike[]) => b.reduce((m, i) => Math.max(m, i.path.length), 0);
      const best = [...issue.errors].filter((b) => b.length > 0)
        .sort((a, b) => depth(b) - depth(a) || a.length - b.length)[0];
      if (best && depth(best) > 0) { out.push(...flattenIssues(best, at)); continue; }
    }
    out.push({ ...issue, path: at });
  }
  return out;
}

/** Turns zod issues into Problems placed at their JSON path. */
export function issueProblems(
  doc: JsonDocument,
  rawIssues: readonly IssueLike[],
  what: string,
  max = 50,
): Problem[] {
  const out: Problem[] = [];
  const issues = flattenIssues(rawIssues);
  for (const issue of issues.slice(0, max)) {
    const jsonPath = issue.path.filter((k): k is string | number => typeof k === 'string' || typeof k === 'number');
    const at = jsonPath.length ? jsonPath.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') : '(top level)';
    out.push(problemAt(doc, jsonPath, 'warning', 'schema', `${what} ${at}: ${issue.message}`));
  }
  if (issues.length > max) {
    out.push({ file: doc.path, severity: 'warning', code: 'more-problems', message: `${issues.length - max} more schema problems in ${doc.path} not listed` });
  }
  return out;
}
