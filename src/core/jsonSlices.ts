// Lists handed from a worker thread to the caller's as JSON texts, one slice per message, each parsed in its own turn
// of the caller's event loop. A slice is cut by size, not by a count of items: what holds the caller's thread is the
// parse of its text and the young-generation collection its objects bring about, both proportional to the text. Measured
// on the extension host's side of Write Run Summary (40,000 repeats, ~4 KB of JSON a task, docs/run-summary.md): the
// longest turn was 24–65 ms with slices of 64–16 tasks (260–65 K characters), 16–20 ms with slices of 8 (~32 K).

/** Characters of JSON per slice (at least one item per slice, however long). */
export const SLICE_CHARS = 32 * 1024;

/**
 * The JSON text of `items[start..end)`, where `end` is the first index past `budget` characters (at least one item):
 * the same text as JSON.stringify(items.slice(start, end)).
 */
export function jsonSlice(items: readonly unknown[], start: number, budget = SLICE_CHARS): { json: string; end: number } {
  const parts: string[] = [];
  let size = 0;
  let i = start;
  while (i < items.length && (i === start || size < budget)) {
    const s = JSON.stringify(items[i]) ?? 'null'; // as JSON.stringify writes undefined (or a function) in an array
    parts.push(s);
    size += s.length + 1;
    i++;
  }
  return { json: `[${parts.join(',')}]`, end: i };
}
