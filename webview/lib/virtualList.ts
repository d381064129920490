// A virtualised list for the webviews: fixed-height rows, only the rows in view (plus a margin) are in the DOM, so
// 20,000 rows cost the nodes of a screenful. Rows are built by the caller with DOM APIs (text as text).
import { showBidi } from '../../src/views/bidi';

/** A new element with a class and text (textContent only: never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = showBidi(text);
  return e;
}

export function codicon(id: string, label?: string): HTMLSpanElement {
  const s = el('span', `codicon codicon-${id}`);
  if (label) { s.setAttribute('role', 'img'); s.setAttribute('aria-label', label); s.title = label; } else s.setAttribute('aria-hidden', 'true');
  return s;
}

const MARGIN = 8;

export class VirtualList<T> {
  readonly root = el('div', 'vlist');
  private readonly spacer = el('div', 'vlist-spacer');
  private readonly layer = el('div', 'vlist-rows');
  private items: readonly T[] = [];
  selected: number | null = null;

  constructor(readonly rowHeight: number, private readonly renderRow: (item: T, index: number, selected: boolean) => HTMLElement, label: string) {
    this.root.tabIndex = 0;
    this.root.setAttribute('role', 'list');
    this.root.setAttribute('aria-label', label);
    this.spacer.append(this.layer);
    this.root.append(this.spacer);
    this.root.addEventListener('scroll', () => this.render());
    new ResizeObserver(() => this.render()).observe(this.root);
  }

  setItems(items: readonly T[]): void {
    this.items = items;
    this.spacer.style.height = `${items.length * this.rowHeight}px`;
    if (this.selected !== null && this.selected >= items.length) this.selected = null;
    this.render();
  }

  get length(): number {
    return this.items.length;
  }

  /** Selects row i and scrolls it into view (`center`: in the middle of the list). */
  select(i: number, center = false): void {
    this.selected = i;
    const top = i * this.rowHeight;
    const h = this.root.clientHeight;
    if (center) this.root.scrollTop = Math.max(0, top - Math.floor(h / 2) + this.rowHeight);
    else if (top < this.root.scrollTop) this.root.scrollTop = top;
    else if (top + this.rowHeight > this.root.scrollTop + h) this.root.scrollTop = top + this.rowHeight - h;
    this.render();
  }

  /** Row elements in the DOM now (tests read this to prove the DOM stays bounded). */
  renderedRows(): number {
    return this.layer.childElementCount;
  }

  render(): void {
    const h = this.root.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.root.scrollTop / this.rowHeight) - MARGIN);
    const last = Math.min(this.items.length, Math.ceil((this.root.scrollTop + h) / this.rowHeight) + MARGIN);
    this.layer.style.transform = `translateY(${first * this.rowHeight}px)`;
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const row = this.renderRow(this.items[i], i, i === this.selected);
      row.dataset.i = String(i);
      row.setAttribute('role', 'listitem');
      row.style.height = `${this.rowHeight}px`;
      frag.append(row);
    }
    this.layer.replaceChildren(frag);
  }
}
