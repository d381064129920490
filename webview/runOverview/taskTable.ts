// The dashboard's task table: one row per task (id, passed_at, rewards, mean, outcome, reward_method, tokens, cost,
// duration, exception, provenance), sortable by any column, filtered by text, outcome, reward range and failure
// cause, virtualised (only the rows in view exist in the DOM, so 10k tasks scroll freely), with keyboard navigation
// (↑/↓/j/k, PageUp/PageDown, Home/End, Enter opens the attempt). Filters, sort, selection and scroll survive updates.
// A big run's rows come in pages after the first screen (addRows): filters and sort apply to the rows in so far, the
// saved scroll position is put back as soon as the rows reach it, and "loading" says how many are still to come.
import type { Dashboard, TaskTableRow } from '../../src/protocol/dashboard';
import type { TableText } from '../../src/core/dashboard/tableText';
import { type DashContext, copyButtons } from './context';
import { codicon, dash, el, fmtCost, fmtDuration, fmtInt, fmtNum, fmtReward } from './dom';
import { plural } from '../../src/core/format';

const ROW_H = 24;
const OVERSCAN = 8;
/** The table body's height (set here, not in the CSS): rows drawn before the body is laid out are the ones it shows. */
const BODY_H = 420;

interface Column { key: string; label: string; cls: string; text: (r: TaskTableRow, ctx: DashContext) => string; sort: (r: TaskTableRow) => number | string | null }

const COLUMNS: Column[] = [
  { key: 'id', label: 'Task', cls: 'c-task', text: (r) => r.label, sort: (r) => r.label },
  { key: 'passedAt', label: 'passed_at', cls: 'c-num', text: (r) => (r.passedAt === null ? dash : String(r.passedAt)), sort: (r) => r.passedAt },
  { key: 'rewards', label: 'Rewards', cls: 'c-rewards', text: (r) => r.rewards.map(fmtReward).join(' '), sort: (r) => r.rewards.filter((x) => x !== null).length },
  { key: 'meanReward', label: 'Mean', cls: 'c-num', text: (r) => fmtNum(r.meanReward), sort: (r) => r.meanReward },
  { key: 'outcome', label: 'Outcome', cls: 'c-outcome', text: (r, ctx) => ctx.outcomeLabel(r.outcome), sort: (r) => r.outcome },
  { key: 'rewardMethod', label: 'Method', cls: 'c-method', text: (r) => r.rewardMethod ?? dash, sort: (r) => r.rewardMethod },
  { key: 'tokens', label: 'Tokens', cls: 'c-num', text: (r) => fmtInt(r.tokens), sort: (r) => r.tokens },
  { key: 'costUsd', label: 'Cost', cls: 'c-num', text: (r) => fmtCost(r.costUsd), sort: (r) => r.costUsd },
  { key: 'durationSec', label: 'Duration', cls: 'c-num', text: (r) => fmtDuration(r.durationSec), sort: (r) => r.durationSec },
  { key: 'exceptions', label: 'Exception', cls: 'c-exc', text: (r) => r.exceptions.join(', '), sort: (r) => r.exceptions[0] ?? null },
  { key: 'provenance', label: 'Prov.', cls: 'c-prov', text: (r) => (r.provenance ? String(r.provenance) : ''), sort: (r) => r.provenance },
];

/** One collator for every comparison (localeCompare with options builds one per call: slow over 10k rows). */
const collator = new Intl.Collator(undefined, { numeric: true });

function compare(a: number | string | null, b: number | string | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // nulls last whatever the direction
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

export class TaskTable {
  readonly root = el('section', 'dash-section task-table');
  private rows: TaskTableRow[] = [];
  /** Rows the table has once every page is in. */
  private total = 0;
  private view: TaskTableRow[] = [];
  /** The saved scroll position still to be put back (the rows below it may not be in yet); null once done. */
  private restoreTo: number | null = null;
  private readonly loadingLabel = el('span', 'tt-loading');
  private readonly body = el('div', 'tt-body');
  private readonly spacer = el('div', 'tt-spacer');
  private readonly shownLabel = el('span', 'tt-shown');
  private readonly head = el('div', 'tt-row tt-head');
  private frame = 0;
  private renderedRange = '';
  private onSelect: (r: TaskTableRow | null) => void = () => undefined;

  constructor(private readonly ctx: DashContext) {
    this.body.style.height = `${BODY_H}px`;
    this.body.tabIndex = 0;
    this.body.setAttribute('role', 'grid');
    this.body.setAttribute('aria-label', 'Tasks');
    this.body.append(this.spacer);
    this.body.addEventListener('scroll', () => {
      // A scroll clamped while the rows are still coming in is not the user's: the saved position is kept.
      if (this.restoreTo === null) { this.ctx.state.tableScroll = this.body.scrollTop; this.saveSoon(); }
      this.schedule();
    });
    const userScrolls = () => { this.restoreTo = null; };
    for (const ev of ['wheel', 'pointerdown', 'keydown', 'touchstart']) this.body.addEventListener(ev, userScrolls, { passive: true });
    this.body.addEventListener('keydown', (e) => this.key(e));
    this.body.addEventListener('click', (e) => {
      const row = (e.target instanceof Element ? e.target : null)?.closest<HTMLElement>('.tt-row[data-id]');
      if (row?.dataset.id) this.select(row.dataset.id, false);
    });
    this.body.addEventListener('dblclick', (e) => {
      const row = (e.target instanceof Element ? e.target : null)?.closest<HTMLElement>('.tt-row[data-id]');
      if (row?.dataset.id) this.open(row.dataset.id);
    });
  }

  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saveSoon(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.ctx.save(), 200);
  }

  onSelection(f: (r: TaskTableRow | null) => void): void { this.onSelect = f; }

  /** Builds the section for `d` (called on every init; the state carries filters, sort, selection and scroll). */
  render(d: Dashboard, outcomes: readonly string[]): HTMLElement {
    this.rows = d.rows.slice();
    this.total = Math.max(d.rowsTotal, d.rows.length);
    const s = this.ctx.state;
    this.restoreTo = s.tableScroll > 0 ? s.tableScroll : null;
    const h = el('h2', undefined, 'Tasks');
    h.append(copyButtons(this.ctx, 'the task table (filtered rows)', () => this.whenLoaded().then(() => this.tableText())));
    const bar = el('div', 'tt-toolbar');
    const text = el('input', 'tt-text');
    text.type = 'search';
    text.placeholder = 'Filter tasks';
    text.setAttribute('aria-label', 'Filter tasks by id');
    text.value = s.text;
    text.addEventListener('input', () => { s.text = text.value; this.refilter(); });
    const outcome = el('select', 'tt-outcome');
    outcome.setAttribute('aria-label', 'Filter by outcome');
    outcome.append(new Option('All outcomes', ''));
    // The run's outcomes (from its counts: the rows may not all be in yet).
    const present = new Set(outcomes);
    for (const o of present) outcome.append(new Option(this.ctx.outcomeLabel(o), o));
    outcome.value = present.has(s.outcome as never) ? s.outcome : '';
    outcome.addEventListener('change', () => { s.outcome = outcome.value; this.refilter(); });
    const cause = el('select', 'tt-cause');
    cause.setAttribute('aria-label', 'Filter by exception or failure cause');
    cause.append(new Option('All causes', ''));
    for (const c of d.causes) cause.append(new Option(`${c.label} (${c.count})`, c.key));
    cause.value = d.causes.some((c) => c.key === s.cause) ? s.cause : '';
    if (!cause.value) s.cause = '';
    cause.addEventListener('change', () => { s.cause = cause.value; this.refilter(); });
    const num = (cls: string, label: string, v: number | null, set: (x: number | null) => void) => {
      const i = el('input', cls);
      i.type = 'number';
      i.step = '0.1';
      i.placeholder = label;
      i.setAttribute('aria-label', `Mean reward ${label}`);
      i.value = v === null ? '' : String(v);
      i.addEventListener('input', () => { const x = i.value.trim() === '' ? null : Number(i.value); set(x !== null && Number.isFinite(x) ? x : null); this.refilter(); });
      return i;
    };
    const prov = el('label', 'tt-prov-label');
    const provBox = el('input', 'tt-prov');
    provBox.type = 'checkbox';
    provBox.checked = s.onlyProvenance;
    provBox.addEventListener('change', () => { s.onlyProvenance = provBox.checked; this.refilter(); });
    prov.append(provBox, el('span', undefined, 'provenance findings only'));
    const clear = el('button', 'btn tt-clear', 'Clear filters');
    clear.type = 'button';
    clear.addEventListener('click', () => {
      Object.assign(s, { text: '', outcome: '', cause: '', rewardMin: null, rewardMax: null, onlyProvenance: false });
      text.value = ''; outcome.value = ''; cause.value = ''; provBox.checked = false;
      for (const i of bar.querySelectorAll<HTMLInputElement>('input[type=number]')) i.value = '';
      this.refilter();
    });
    bar.append(text, outcome, cause, el('span', 'lbl', 'mean reward'), num('tt-min', 'min', s.rewardMin, (x) => { s.rewardMin = x; }),
      el('span', 'lbl', 'to'), num('tt-max', 'max', s.rewardMax, (x) => { s.rewardMax = x; }), prov, clear, this.shownLabel, this.loadingLabel, this.copyWaits);

    this.head.replaceChildren();
    this.head.setAttribute('role', 'row');
    for (const c of COLUMNS) {
      const th = el('button', `tt-cell tt-th ${c.cls}`, c.label);
      th.type = 'button';
      th.dataset.key = c.key;
      th.setAttribute('role', 'columnheader');
      const active = s.sort === c.key;
      th.setAttribute('aria-sort', active ? (s.sortDesc ? 'descending' : 'ascending') : 'none');
      if (active) th.append(codicon(s.sortDesc ? 'arrow-down' : 'arrow-up'));
      th.title = `Sort by ${c.label}`;
      th.addEventListener('click', () => {
        if (s.sort === c.key) s.sortDesc = !s.sortDesc; else { s.sort = c.key; s.sortDesc = c.key !== 'id'; }
        this.head.querySelectorAll('.tt-th').forEach((x) => {
          const k = (x as HTMLElement).dataset.key;
          x.setAttribute('aria-sort', k === s.sort ? (s.sortDesc ? 'descending' : 'ascending') : 'none');
          x.querySelector('.codicon')?.remove();
          if (k === s.sort) x.append(codicon(s.sortDesc ? 'arrow-down' : 'arrow-up'));
        });
        this.refilter();
      });
      this.head.append(th);
    }
    const wrap = el('div', 'tt-wrap');
    wrap.append(this.head, this.body);
    this.root.replaceChildren(h, bar, wrap);
    if (d.rowsOmitted > 0) this.root.append(el('p', 'note', `${d.rowsOmitted} more tasks not in the table.`));
    this.refilter(true);
    return this.root;
  }

  private matches(r: TaskTableRow): boolean {
    const s = this.ctx.state;
    const t = s.text.trim().toLowerCase();
    if (t && !r.label.toLowerCase().includes(t) && !r.id.toLowerCase().includes(t)) return false;
    if (s.outcome && !r.outcomes.includes(s.outcome as never)) return false;
    if (s.cause && !r.causes.includes(s.cause)) return false;
    if (s.onlyProvenance && r.provenance === 0) return false;
    if (s.rewardMin !== null && (r.meanReward === null || r.meanReward < s.rewardMin)) return false;
    if (s.rewardMax !== null && (r.meanReward === null || r.meanReward > s.rewardMax)) return false;
    return true;
  }

  /** Rows the host sent after the first screen, in order from `from` (a page out of order is dropped). */
  addRows(from: number, rows: readonly TaskTableRow[], done: boolean): void {
    if (from !== this.rows.length) return;
    for (const r of rows) this.rows.push(r);
    if (done || this.rows.length > this.total) this.total = this.rows.length;
    this.refilter(true);
    if (!this.loading) for (const f of this.waiting.splice(0)) f();
  }

  private readonly waiting: (() => void)[] = [];

  /**
   * Resolves once every row is in (at once when they are): a copy asked while pages are still coming waits for them,
   * and says so. A live update meanwhile starts the rows over; the copy then waits for that run's rows.
   */
  whenLoaded(): Promise<void> {
    if (!this.loading) return Promise.resolve();
    this.copyWaits.textContent = 'copying once every row is in…';
    return new Promise((resolve) => this.waiting.push(() => { this.copyWaits.textContent = ''; resolve(); }));
  }

  private readonly copyWaits = el('span', 'tt-copy-waits');

  /** Rows are still to come from the host. */
  get loading(): boolean { return this.rows.length < this.total; }

  /** Rows in so far. */
  get loaded(): number { return this.rows.length; }

  /** Applies filters and sort; keeps the scroll position on a live update (`restore`), resets it on a filter change. */
  refilter(restore = false): void {
    const s = this.ctx.state;
    const col = COLUMNS.find((c) => c.key === s.sort) ?? COLUMNS[0];
    const dir = s.sortDesc ? -1 : 1;
    this.view = this.rows.filter((r) => this.matches(r));
    this.view.sort((a, b) => { const x = col.sort(a); const y = col.sort(b); return x === null || y === null ? compare(x, y) : dir * compare(x, y); });
    this.shownLabel.textContent = `${this.view.length} of ${plural(this.rows.length, 'task')}`;
    this.loadingLabel.textContent = this.loading ? `loading ${this.total - this.rows.length} more…` : '';
    this.root.classList.toggle('loading', this.loading);
    this.spacer.style.height = `${this.view.length * ROW_H}px`;
    this.renderedRange = '';
    if (!restore) { this.restoreTo = null; s.tableScroll = 0; this.body.scrollTop = 0; this.ctx.save(); }
    this.root.dataset.shown = String(this.view.length);
    this.root.dataset.loading = String(this.loading);
    requestAnimationFrame(() => {
      if (restore && this.restoreTo !== null) {
        this.body.scrollTop = this.restoreTo;
        if (!this.loading || this.body.scrollTop >= this.restoreTo - 1) this.restoreTo = null;
      }
      this.draw();
      this.onSelect(this.selectedRow());
    });
    this.draw();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  private draw(): void {
    const h = this.body.clientHeight || BODY_H;
    const first = Math.max(0, Math.floor(this.body.scrollTop / ROW_H) - OVERSCAN);
    const last = Math.min(this.view.length, Math.ceil((this.body.scrollTop + h) / ROW_H) + OVERSCAN);
    const key = `${first}:${last}:${this.ctx.state.selected}`;
    if (key === this.renderedRange) return;
    this.renderedRange = key;
    const frag = document.createDocumentFragment();
    frag.append(this.spacer);
    for (let i = first; i < last; i++) frag.append(this.rowEl(this.view[i], i));
    this.body.replaceChildren(frag);
    this.body.setAttribute('aria-rowcount', String(this.view.length));
  }

  private rowEl(r: TaskTableRow, i: number): HTMLElement {
    const row = el('div', `tt-row o-${r.outcome}${r.id === this.ctx.state.selected ? ' selected' : ''}${r.provenance ? ' has-prov' : ''}`);
    row.dataset.id = r.id;
    row.setAttribute('role', 'row');
    row.setAttribute('aria-rowindex', String(i + 1));
    row.setAttribute('aria-selected', r.id === this.ctx.state.selected ? 'true' : 'false');
    row.style.top = `${i * ROW_H}px`;
    for (const c of COLUMNS) {
      const cell = el('span', `tt-cell ${c.cls}`, c.text(r, this.ctx));
      cell.setAttribute('role', 'gridcell');
      if (c.key === 'provenance' && r.provenance) cell.prepend(codicon('warning'));
      if (c.key === 'id') cell.title = r.id;
      if (c.key === 'exceptions' && r.exceptions.length) cell.title = r.exceptions.join('\n');
      row.append(cell);
    }
    return row;
  }

  selectedRow(): TaskTableRow | null {
    const id = this.ctx.state.selected;
    return id ? this.rows.find((r) => r.id === id) ?? null : null;
  }

  select(id: string, scroll = true): void {
    this.ctx.state.selected = id;
    this.ctx.save();
    if (scroll) {
      const i = this.view.findIndex((r) => r.id === id);
      if (i >= 0) {
        const top = i * ROW_H;
        const h = this.body.clientHeight || BODY_H;
        if (top < this.body.scrollTop) this.body.scrollTop = top;
        else if (top + ROW_H > this.body.scrollTop + h) this.body.scrollTop = top + ROW_H - h;
      }
    }
    this.renderedRange = '';
    this.draw();
    this.onSelect(this.selectedRow());
  }

  open(id: string): void {
    const r = this.rows.find((x) => x.id === id);
    if (r?.openAttemptId) this.ctx.post({ type: 'openAttempt', taskId: r.id, attemptId: r.openAttemptId, target: 'trajectory' });
  }

  /** Sets the cause filter (a click on a failure cause) and brings the table into view. */
  filterByCause(key: string): void {
    this.ctx.state.cause = key;
    const sel = this.root.querySelector<HTMLSelectElement>('select.tt-cause');
    if (sel) sel.value = key;
    this.refilter();
    this.root.scrollIntoView({ block: 'start' });
    this.body.focus();
  }

  private key(e: KeyboardEvent): void {
    if (this.view.length === 0) return;
    const cur = this.view.findIndex((r) => r.id === this.ctx.state.selected);
    const page = Math.max(1, Math.floor((this.body.clientHeight || BODY_H) / ROW_H) - 1);
    let next = cur;
    switch (e.key) {
      case 'ArrowDown': case 'j': next = cur < 0 ? 0 : Math.min(this.view.length - 1, cur + 1); break;
      case 'ArrowUp': case 'k': next = cur < 0 ? 0 : Math.max(0, cur - 1); break;
      case 'PageDown': next = Math.min(this.view.length - 1, Math.max(0, cur) + page); break;
      case 'PageUp': next = Math.max(0, cur - page); break;
      case 'Home': next = 0; break;
      case 'End': next = this.view.length - 1; break;
      case 'Enter': if (cur >= 0) this.open(this.view[cur].id); e.preventDefault(); return;
      default: return;
    }
    e.preventDefault();
    this.select(this.view[next].id);
  }

  tableText(): TableText {
    return { headers: COLUMNS.map((c) => c.label), rows: this.view.map((r) => COLUMNS.map((c) => c.text(r, this.ctx))) };
  }

  /** Number of rows passing the filters (tests, `rendered`). */
  get shown(): number { return this.view.length; }
}
