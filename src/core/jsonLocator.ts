// Where a value named by a JSON path sits in a JSON text: the ONE locator, used for the line and column of a reader's
// Problem (readers/jsonFile.ts), the range of its Problems-panel entry and the place "go to problem" opens (the
// extension). It points at the VALUE (a property's key is one token before it); a path that does not exist lands on
// its deepest existing parent. Zero-based line / character pairs, as editors count.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { Problem } from './model';

export interface Span {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

/** Offsets where each line of `text` starts. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of an offset, by binary search over the line starts. */
export function lineColumnFast(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}

/** A parsed JSON text that answers span queries (parse once per file, query per problem). */
export class JsonLocator {
  private readonly root: Node | undefined;
  private starts: number[] | undefined;

  constructor(private readonly text: string) {
    this.root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  }

  /** Zero-based position of an offset. */
  private position(offset: number): { line: number; character: number } {
    this.starts ??= lineStartsOf(this.text);
    const { line, column } = lineColumnFast(this.starts, Math.min(Math.max(offset, 0), this.text.length));
    return { line: line - 1, character: column - 1 };
  }

  spanOf(jsonPath: readonly (string | number)[]): Span | undefined {
    if (!this.root) return undefined;
    for (let n = jsonPath.length; n >= 0; n--) {
      const node = findNodeAtLocation(this.root, jsonPath.slice(0, n) as (string | number)[]);
      if (!node) continue;
      const s = this.position(node.offset);
      const e = this.position(node.offset + node.length);
      return { line: s.line, character: s.character, endLine: e.line, endCharacter: e.character };
    }
    return undefined;
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
