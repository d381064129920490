// A virtualised step list: fixed-height rows, only the rows in view (plus a margin) exist in the DOM, so a
// 10,000-step trajectory costs the same number of nodes as a 20-step one.
import type { OutlineRow } from '../../src/core/trajectory/outline';
import { ROW } from '../../src/core/trajectory/outline';
import { codicon, duration, el } from './dom';

export const ROW_HEIGHT = 24;
const MARGIN = 10;

const SOURCE_ICON: Record<OutlineRow['source'], string> = { system: 'gear', user: 'account', agent: 'hubot', unknown: 'question' };

export class StepList {
  readonly root = el('div', 'step-list');
  private readonly spacer = el('div', 'spacer');
  private readonly layer = el('div', 'rows');
  private rows: OutlineRow[] = [];
  private hits = new Map<number, number>();
  selected: number | null = null;

  constructor(private readonly onSelect: (i: number) => void) {
    this.root.tabIndex = 0;
    this.root.setAttribute('role', 'listbox');
    this.root.setAttribute('aria-label', 'Steps');
    this.spacer.append(this.layer);
    this.root.append(this.spacer);
    this.root.addEventListener('scroll', () => this.render());
    this.root.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
      if (row?.dataset.i) this.onSelect(Number(row.dataset.i));
    });
    new ResizeObserver(() => this.render()).observe(this.root);
  }

  setRows(rows: OutlineRow[]): void {
    this.rows = rows;
    this.spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.render();
  }

  setHits(hits: Map<number, number>): void {
    this.hits = hits;
    this.render();
  }

  select(i: number): void {
    this.selected = i;
    const top = i * ROW_HEIGHT;
    if (top < this.root.scrollTop) this.root.scrollTop = top;
    else if (top + ROW_HEIGHT > this.root.scrollTop + this.root.clientHeight) this.root.scrollTop = top + ROW_HEIGHT - this.root.clientHeight;
    this.render();
  }

  /** Rendered row elements (tests read this to prove the DOM stays bounded). */
  renderedRows(): number {
    return this.layer.childElementCount;
  }

  render(): void {
    const h = this.root.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.root.scrollTop / ROW_HEIGHT) - MARGIN);
    const last = Math.min(this.rows.length, Math.ceil((this.root.scrollTop + h) / ROW_HEIGHT) + MARGIN);
    this.layer.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) frag.append(this.rowEl(this.rows[i]));
    this.layer.replaceChildren(frag);
  }

  private rowEl(r: OutlineRow): HTMLElement {
    const row = el('div', `row src-${r.source}`);
    row.dataset.i = String(r.i);
    row.setAttribute('role', 'option');
    row.setAttribute('aria-selected', String(r.i === this.selected));
    if (r.i === this.selected) row.classList.add('selected');
    if (r.flags & ROW.copied) row.classList.add('copied');
    if (r.flags & ROW.boundary) row.classList.add('boundary');
    if (r.flags & ROW.fileStart) row.classList.add('file-start');
    if (this.hits.has(r.i)) row.classList.add('has-hit');
    row.append(el('span', 'num', `#${r.i + 1}`), codicon(SOURCE_ICON[r.source], r.source));
    if (r.flags & ROW.boundary) row.append(codicon('fold', 'context boundary'));
    if (r.flags & ROW.calls) row.append(codicon('tools', 'tool calls'));
    if (r.flags & ROW.subagent) row.append(codicon('type-hierarchy-sub', 'subagent'));
    if (r.flags & ROW.copied) row.append(codicon('copy', 'copied context'));
    if (r.flags & ROW.media) row.append(codicon('file-media', 'image or audio'));
    row.append(el('span', 'sum', r.summary));
    const hit = this.hits.get(r.i);
    if (hit) row.append(el('span', 'hitcount', String(hit)));
    row.append(el('span', 'dur', r.flags & ROW.noModelCall ? 'no model call' : duration(r.durationMs)));
    return row;
  }
}
