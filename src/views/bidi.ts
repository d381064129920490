// Bidi controls in a run's text (an agent's message, a tool's output, a task id) reorder what is displayed around
// them: "report\u202etxt.exe" reads as "reportexe.txt", and a command can be made to read as another. The webviews show
// such text as text; each bidi control in it is shown as its escape (`\u202e`), as the tree's tooltips and the CLI do.

/** The bidi embeddings, overrides, isolates and marks (ALM, LRM, RLM, LRE … RLO, LRI … PDI). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_ALL = new RegExp(BIDI.source, 'g');

/** `s` with each bidi control replaced by its visible escape (`s` itself when it has none). */
export function showBidi(s: string): string {
  return BIDI.test(s) ? s.replace(BIDI_ALL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) : s;
}
