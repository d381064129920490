// Where a Problem sits in its file: the exact JSON value named by its jsonPath (jsonc-parser), else its line and
// column, else the file's start. vscode-free (zero-based line / character pairs).
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { Problem } from '../core/model';
import { lineColumnFast, lineStartsOf } from '../core/readers/jsonFile';

export interface Span {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

/** Zero-based position of an offset (the core's helpers are 1-based). */
function toPos(starts: number[], offset: number): { line: number; character: number } {
  const { line, column } = lineColumnFast(starts, offset);
  return { line: line - 1, character: column - 1 };
}

/** A parsed JSON text that answers span queries (parse once per file, query per problem). */
export class JsonLocator {
  private readonly root;
  private starts: number[] | undefined;

  constructor(private readonly text: string) {
    this.root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  }

  spanOf(jsonPath: (string | number)[]): Span | undefined {
    if (!this.root) return undefined;
    // The deepest node that exists on the path: a missing key still lands on its parent object.
    for (let n = jsonPath.length; n >= 0; n--) {
      const node = findNodeAtLocation(this.root, jsonPath.slice(0, n));
      if (!node) continue;
      // A property's value: point at the value; the key is reachable through parent.children[0].
      this.starts ??= lineStartsOf(this.text);
      const s = toPos(this.starts, node.offset);
      const e = toPos(this.starts, node.offset + node.length);
      return { line: s.line, character: s.character, endLine: e.line, endCharacter: e.character };
    }
    return undefined;
  }
}

/** The span of a problem without file content: its line (whole line) or the start of the file. */
export function lineSpan(p: Problem): Span {
  if (p.line && p.line > 0) {
    const col = p.column && p.column > 0 ? p.column - 1 : 0;
    return { line: p.line - 1, character: col, endLine: p.line - 1, endCharacter: col + 10000 };
  }
  return { line: 0, character: 0, endLine: 0, endCharacter: 0 };
}
