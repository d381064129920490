// DOM helpers of the trajectory webview. Every piece of trajectory content goes through textContent: agents and
// tools write anything, and it is shown as text, never parsed as HTML (its bidi controls shown as escapes: showBidi).
import { showBidi } from '../../src/views/bidi';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = showBidi(text);
  return e;
}

export function codicon(name: string, title?: string): HTMLSpanElement {
  const s = el('span', `codicon codicon-${name}`);
  if (title) s.title = title; else s.setAttribute('aria-hidden', 'true');
  return s;
}

/** A vscode-button with an optional codicon; `secondary` for the quieter look. */
export function button(label: string, icon: string | null, onClick: () => void, opts: { id?: string; title?: string; secondary?: boolean } = {}): HTMLElement {
  const b = document.createElement('vscode-button');
  if (icon) b.setAttribute('icon', icon);
  if (opts.secondary) b.setAttribute('secondary', '');
  if (opts.id) b.id = opts.id;
  if (opts.title) b.title = opts.title;
  b.textContent = showBidi(label);
  b.addEventListener('click', onClick);
  return b;
}

export function num(v: number | null, digits = 0): string {
  if (v === null) return '—';
  return digits ? v.toFixed(digits) : v.toLocaleString('en-US');
}

export function money(v: number | null): string {
  return v === null ? '—' : `$${v < 0.01 && v > 0 ? v.toPrecision(2) : v.toFixed(4)}`;
}

/** Milliseconds as "1h 02m", "3m 04s", "5.2s"; "—" when unknown: the core's one formatter. */
export { formatDuration as duration } from '../../src/core/trajectory/document';

/** Appends `text` to `parent`, wrapping each case-insensitive occurrence of `query` in <mark> (text nodes only). */
export function highlighted(parent: HTMLElement, shown: string, query: string): number {
  const text = showBidi(shown);
  if (!query) { parent.append(text); return 0; }
  const lower = text.toLowerCase(); const q = query.toLowerCase();
  let at = 0; let n = 0;
  for (let hit = lower.indexOf(q); hit !== -1; hit = lower.indexOf(q, hit + q.length)) {
    parent.append(text.slice(at, hit));
    const m = el('mark', 'hit', text.slice(hit, hit + q.length));
    parent.append(m);
    at = hit + q.length; n++;
    if (n > 5000) break;
  }
  parent.append(text.slice(at));
  return n;
}
