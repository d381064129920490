// A dashboard table as text for the clipboard: GitHub Markdown (pipes escaped, one line per row) or CSV (RFC 4180
// quoting; a text cell that a spreadsheet would run as a formula — starting with = + - @ — is prefixed with ').
export interface TableText {
  headers: string[];
  rows: string[][];
}

function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
}

export function toMarkdown(t: TableText): string {
  const line = (cells: string[]) => `| ${cells.map(mdCell).join(' | ')} |`;
  return [line(t.headers), `|${t.headers.map(() => ' --- ').join('|')}|`, ...t.rows.map(line)].join('\n') + '\n';
}

function csvCell(s: string): string {
  const guarded = /^[=+\-@\t\r]/.test(s) && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(guarded) || guarded !== guarded.trim() ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export function toCsv(t: TableText): string {
  return [t.headers, ...t.rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
