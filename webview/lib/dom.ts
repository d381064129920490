// DOM helpers every webview shares. Text goes in through textContent only: whatever a run holds is untrusted (and
// its bidi controls are shown as escapes: showBidi).
import { showBidi } from '../../src/views/bidi';

/** A new element with classes and text (textContent only). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = showBidi(text);
  return e;
}
