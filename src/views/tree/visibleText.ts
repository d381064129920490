// Text from a run (task ids, agent names, exception messages, file names) as the tree shows it: C0/C1 control
// characters and bidi controls as visible escapes (`\u202e`), so none of them acts on what is drawn (a bidi override
// reorders the text around it: "report\u202etxt.exe" reads as "reportexe.txt").

/** C0/C1 controls (not tab or newline) and the bidi marks, embeddings, overrides and isolates. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/** `s` with each such character as its escape (`s` itself when it has none). */
export function visibleText(s: string): string {
  return UNSAFE.test(s) ? s.replace(UNSAFE_ALL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) : s;
}
