// The Run Overview webview (browser, bundled as an iife into out/webview/runOverview.js). Handshake: the page's first
// script (early.ts) posts `ready` and keeps what the host sends until this bundle listens; the host answers `init` with the first screen of the view model (src/protocol/runOverview.ts),
// re-sent whenever the run is re-read; the task table's other rows are asked for in pages once it is painted.
// Everything is built with DOM APIs and textContent: task names, exceptions and problems are untrusted text.
// Filter state (text, outcome) and the run shown survive hide / reload through acquireVsCodeApi().getState/setState.
import { earlyChannel } from '../lib/earlyChannel';
import '../lib/zodJitless';
import * as z from 'zod/mini';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import {
  type HostMessage, type OverviewModel, type OverviewTaskRow, type PassAt, type WebviewMessage, OUTCOMES, parseHostMessage,
} from '../../src/protocol/runOverview';
import { RUN_KIND_LABELS, formatReward, plural } from '../../src/core/format';
import { type DashContext, type DashState, DashStateSchema, defaultDashState } from './context';
import { DashboardView } from './dashboard';
import { badge, codicon, el } from './dom';
import { renderProblems } from './problems';
import { listenToHost } from '../lib/hostChannel';

const early = earlyChannel('overview');
const vscode = early.api;

// runId: which run this panel shows, so VS Code can restore the panel after a reload (the host's serializer).
// dash: the dashboard's own state (filters, sort, selection, scroll, pivot, chart ranges: runOverview/context.ts).
const ViewStateSchema = z.object({
  text: z.catch(z.string().check(z.maxLength(1000)), ''), outcome: z.catch(z.string().check(z.maxLength(40)), ''), runId: z.catch(z.optional(z.string().check(z.maxLength(4000))), undefined),
  dash: z.catch(z.optional(DashStateSchema), undefined),
});
type ViewState = z.infer<typeof ViewStateSchema>;

function loadState(): ViewState {
  const r = ViewStateSchema.safeParse(vscode.getState());
  return r.success ? r.data : { text: '', outcome: '' };
}

let state: ViewState = loadState();
let model: OverviewModel | undefined;
const dashState: DashState = state.dash ?? defaultDashState();

function post(m: WebviewMessage): void {
  vscode.postMessage(m);
}

function saveState(): void {
  vscode.setState({ ...state, dash: dashState });
}

const dashCtx: DashContext = {
  post, state: dashState, save: saveState,
  outcomeLabel: (o) => model?.counts.byOutcome.find((x) => x.outcome === o)?.label ?? o,
};
const dashboard = new DashboardView(dashCtx);
let firstRender = true;

function fmt(v: number | null, digits = 3): string {
  return v === null ? '—' : v.toFixed(digits);
}

const STATE_ICON: Record<OverviewModel['state'], string> = { complete: 'check-all', running: 'sync~spin', incomplete: 'debug-pause' };

function renderHeader(m: OverviewModel): HTMLElement {
  const h = el('header', 'run-header');
  const title = el('h1', 'run-title');
  title.append(codicon(STATE_ICON[m.state], `state-${m.state}`), el('span', 'run-label', m.label));
  const meta = el('div', 'run-meta');
  meta.append(el('span', 'kind', RUN_KIND_LABELS[m.kind]), el('span', 'sep', '·'), el('span', `state state-${m.state}`, m.state));
  const ids = el('dl', 'identity');
  for (const [k, v] of m.identity) {
    const d = el('div', 'kv');
    d.append(el('dt', undefined, k), el('dd', v === null ? 'null' : undefined, v ?? 'null'));
    ids.append(d);
  }
  h.append(title, meta);
  if (m.identity.length) h.append(ids);
  return h;
}

function passLine(name: string, p: PassAt): HTMLElement {
  const d = el('div', 'pass');
  d.append(el('span', 'pass-name', name), el('span', 'pass-value', fmt(p.value)));
  d.append(el('span', 'pass-detail', `${p.nMeasured} measured / ${plural(p.nTasks, 'task')} · ${p.nAllInfra} all-infra`));
  return d;
}

function renderSummary(m: OverviewModel): HTMLElement {
  const s = el('section', 'summary');
  s.setAttribute('aria-label', 'Counts and pass@k');
  const counts = el('div', 'counts');
  const total = el('span', 'count total');
  total.append(el('span', 'count-label', 'attempts'), badge(m.counts.total));
  counts.append(total);
  for (const o of m.counts.byOutcome) {
    const c = el('span', `count o-${o.outcome}`);
    c.title = `${o.count} ${o.label}`;
    c.append(codicon(o.icon), el('span', 'count-label', o.label), badge(o.count));
    counts.append(c);
  }
  const pass = el('div', 'passes');
  pass.append(passLine('pass@1', m.passAt1));
  if (m.passAtK.k !== 1) pass.append(passLine(`pass@${m.passAtK.k}`, m.passAtK));
  pass.append(el('p', 'note', `${m.counts.measured} of ${plural(m.counts.total, 'attempt')} measured. null reward = not measured: such attempts are left out of pass@k (never counted as 0); a task with every attempt unmeasured counts as all-infra.`));
  s.append(counts, pass);
  return s;
}

function renderToolbar(m: OverviewModel): HTMLElement {
  const bar = el('div', 'toolbar');
  const text = document.createElement('vscode-textfield') as HTMLElement & { value: string; placeholder: string };
  text.id = 'filter-text';
  text.setAttribute('placeholder', 'Filter tasks');
  text.setAttribute('aria-label', 'Filter tasks by name');
  text.value = state.text;
  const icon = codicon('filter');
  icon.setAttribute('slot', 'content-before');
  text.append(icon);
  text.addEventListener('input', () => { state = { ...state, text: text.value }; saveState(); applyFilter(); });

  const sel = document.createElement('vscode-single-select') as HTMLElement & { value: string };
  sel.id = 'filter-outcome';
  sel.setAttribute('aria-label', 'Filter tasks by outcome');
  const present = new Set(m.counts.byOutcome.map((o) => o.outcome));
  const opt = (value: string, label: string) => {
    const o = document.createElement('vscode-option');
    o.setAttribute('value', value);
    o.textContent = label;
    if (value === state.outcome) o.setAttribute('selected', '');
    return o;
  };
  sel.append(opt('', 'All outcomes'));
  for (const o of m.counts.byOutcome) sel.append(opt(o.outcome, `${o.label} (${o.count})`));
  if (state.outcome && !present.has(state.outcome as never)) state = { ...state, outcome: '' };
  sel.addEventListener('change', () => { state = { ...state, outcome: sel.value }; saveState(); applyFilter(); });

  bar.append(text, sel, el('span', 'shown', ''));
  return bar;
}

/**
 * Above this many tasks the task × attempt grid (one button per attempt, not virtualised: its layout is what costs
 * on a big run) is built only when its section is opened; the dashboard's task table above is virtualised.
 */
const GRID_EAGER_TASKS = 200;

function renderGridSection(m: OverviewModel): HTMLElement {
  const d = el('details', 'grid-section');
  d.open = !m.gridDeferred && m.tasks.length <= GRID_EAGER_TASKS;
  d.append(el('summary', undefined, `Task × attempt grid (${plural(m.tasks.length + m.tasksOmitted, 'task')})`));
  const fill = () => {
    if (d.querySelector('#grid, .grid-loading')) return;
    // A big run's grid is not in the init message: asked for now, drawn when it comes (showGrid).
    if (model?.gridDeferred) { d.append(el('p', 'note grid-loading', 'Loading the grid…')); post({ type: 'grid' }); return; }
    d.append(renderToolbar(m), renderGrid(m));
    applyFilter();
  };
  if (d.open) fill();
  else d.addEventListener('toggle', () => { if (d.open) fill(); });
  return d;
}

/** The grid the host sent for a run whose init deferred it. */
function showGrid(g: Extract<HostMessage, { type: 'grid' }>): void {
  if (!model || g.generation !== model.generation) return;
  model = { ...model, columns: g.columns, tasks: g.tasks, tasksOmitted: g.tasksOmitted, gridDeferred: false };
  const section = document.querySelector<HTMLDetailsElement>('details.grid-section');
  if (!section) return;
  section.querySelector('.grid-loading')?.remove();
  section.append(renderToolbar(model), renderGrid(model));
  applyFilter();
  post({ type: 'rendered', rows: model.tasks.length, columns: model.columns.length, tableRows: dashboard.tableRows });
}

function renderGrid(m: OverviewModel): HTMLElement {
  const wrap = el('div', 'grid-wrap');
  const table = el('table', 'grid');
  table.id = 'grid';
  const head = el('thead');
  const groups = m.columns.some((c) => c.group !== undefined);
  if (groups) {
    const gr = el('tr', 'groups');
    gr.append(el('th', 'corner'));
    let i = 0;
    while (i < m.columns.length) {
      const g = m.columns[i].group ?? '';
      let span = 1;
      while (i + span < m.columns.length && m.columns[i + span].group === g) span++;
      const th = el('th', 'group', g);
      th.colSpan = span;
      th.title = g;
      gr.append(th);
      i += span;
    }
    gr.append(el('th', 'corner'));
    head.append(gr);
  }
  const hr = el('tr');
  const task = el('th', 'task-col', 'Task');
  task.scope = 'col';
  hr.append(task);
  for (const c of m.columns) { const th = el('th', 'attempt-col', c.label); th.scope = 'col'; hr.append(th); }
  const pk = el('th', 'pass-col', `pass@${m.passAtK.k}`);
  pk.scope = 'col';
  hr.append(pk);
  head.append(hr);
  const body = el('tbody');
  for (const t of m.tasks) body.append(renderRow(t));
  table.append(head, body);
  wrap.append(table);
  if (m.tasks.length === 0) wrap.append(el('p', 'empty', 'This run has no tasks yet.'));
  if (m.tasksOmitted > 0) wrap.append(el('p', 'note', `${m.tasksOmitted} more tasks not shown.`));
  const none = el('p', 'empty no-match', 'No task matches the filter.');
  none.hidden = true;
  wrap.append(none);
  return wrap;
}

function renderRow(t: OverviewTaskRow): HTMLTableRowElement {
  const tr = el('tr', 'task-row');
  tr.dataset.taskId = t.id;
  const th = el('th', 'task', t.label);
  th.scope = 'row';
  th.title = t.id;
  tr.append(th);
  for (const c of t.cells) {
    const td = el('td', 'cell-td');
    if (c) {
      const b = el('button', `cell o-${c.outcome}`);
      b.type = 'button';
      b.dataset.taskId = t.id;
      b.dataset.attemptId = c.attemptId;
      b.dataset.outcome = c.outcome;
      b.title = c.tooltip;
      b.setAttribute('aria-label', `${t.label} ${c.label}: ${c.tooltip.split('\n')[1] ?? c.outcome}, reward ${formatReward(c.reward)}`);
      b.append(codicon(c.icon), el('span', 'reward', formatReward(c.reward)));
      td.append(b);
    } else {
      td.append(el('span', 'no-attempt', ''));
    }
    tr.append(td);
  }
  tr.append(el('td', 'pass-k', fmt(t.passAtK, 2)));
  return tr;
}

function applyFilter(): void {
  if (!model) return;
  const text = state.text.trim().toLowerCase();
  const outcome = (OUTCOMES as readonly string[]).includes(state.outcome) ? state.outcome : '';
  const byId = new Map(model.tasks.map((t) => [t.id, t]));
  let shown = 0;
  for (const tr of document.querySelectorAll<HTMLTableRowElement>('#grid tbody tr.task-row')) {
    const t = byId.get(tr.dataset.taskId ?? '');
    const ok = !!t && (!text || t.label.toLowerCase().includes(text) || t.id.toLowerCase().includes(text))
      && (!outcome || t.outcomes.includes(outcome as never));
    tr.hidden = !ok;
    if (ok) shown++;
    for (const b of tr.querySelectorAll<HTMLElement>('button.cell')) b.classList.toggle('dim', !!outcome && b.dataset.outcome !== outcome);
  }
  const label = document.querySelector('.toolbar .shown');
  if (label) label.textContent = `${shown} of ${plural(model.tasks.length, 'task')}`;
  const none = document.querySelector<HTMLElement>('.no-match');
  if (none) none.hidden = shown > 0 || model.tasks.length === 0;
}

function render(m: OverviewModel): void {
  model = m;
  if (state.runId !== m.runId) { state = { ...state, runId: m.runId }; saveState(); }
  const app = document.getElementById('app');
  if (!app) return;
  // A live update rebuilds the page: the scroll position is put back (filters, sort and selection are in the state).
  const scroller = document.scrollingElement ?? document.documentElement;
  const scrollTop = scroller.scrollTop;
  app.replaceChildren(renderHeader(m), renderSummary(m), ...dashboard.render(m), renderGridSection(m), renderProblems(m, firstRender, () => model?.generation));
  app.setAttribute('aria-busy', 'false');
  applyFilter();
  // Only when there is a position to put back: setting it makes the browser lay the new page out at once, which
  // on the first screen of a big run is a whole extra layout before the frame's own.
  if (scrollTop > 0) {
    scroller.scrollTop = scrollTop;
    requestAnimationFrame(() => { scroller.scrollTop = scrollTop; });
  }
  if (firstRender) { firstRender = false; dashboard.afterFirstRender(); }
  post({ type: 'rendered', rows: m.tasks.length, columns: m.columns.length, tableRows: dashboard.tableRows, loading: dashboard.loading });
  if (dashboard.loading) askMoreRows();
}

/**
 * Asks the host for the task table's next page once this frame is painted (after the first screen, then after each
 * page): the first screen never waits for the rest, and one page at a time is in flight.
 */
function askMoreRows(): void {
  const gen = model?.generation;
  requestAnimationFrame(() => setTimeout(() => {
    if (model && model.generation === gen && dashboard.loading) post({ type: 'moreRows', generation: model.generation, from: dashboard.loadedRows });
  }, 0));
}

/** A page of the task table's rows (of the init shown: pages of an earlier one are dropped). */
function addRows(p: Extract<HostMessage, { type: 'rows' }>): void {
  if (!model || p.generation !== model.generation) return;
  dashboard.addRows(p.from, p.rows, p.done);
  if (dashboard.loading) askMoreRows();
  else post({ type: 'rendered', rows: model.tasks.length, columns: model.columns.length, tableRows: dashboard.tableRows, loading: false });
}

function renderGone(): void {
  const app = document.getElementById('app');
  if (app) app.replaceChildren(el('p', 'empty', 'This run is no longer on disk.'));
}

document.addEventListener('click', (e) => {
  const target = e.target instanceof Element ? e.target : null;
  const cell = target?.closest<HTMLElement>('button.cell');
  if (cell?.dataset.taskId && cell.dataset.attemptId) {
    post({ type: 'openAttempt', taskId: cell.dataset.taskId, attemptId: cell.dataset.attemptId });
    return;
  }
  const problem = target?.closest<HTMLElement>('button.problem');
  if (problem?.dataset.index) post({ type: 'openProblem', index: Number(problem.dataset.index) });
});

// Marks of the first paint (performance.getEntriesByType('mark'); 'script' and 'ready' are early.ts's):
// bench/dashboardPaint.bench.ts reads them.
const mark = (name: string): void => { performance.mark(`overview:${name}`); };
mark('listening');
const parseTimed = (data: unknown) => {
  const init = firstRender && (data as { type?: unknown } | null)?.type === 'init';
  if (init) mark('init-received');
  const r = parseHostMessage(data);
  if (init) mark('init-parsed');
  return r;
};

const reportError = listenToHost(post, parseTimed, (m) => {
  try {
    if (m.type === 'init') {
      const first = firstRender;
      render(m.model);
      if (first) { mark('rendered'); requestAnimationFrame(() => setTimeout(() => mark('painted'), 0)); }
    }
    else if (m.type === 'rows') addRows(m);
    else if (m.type === 'grid') showGrid(m);
    else if (m.type === 'gone') renderGone();
    else if (m.type === 'training') dashboard.setTraining(m.series);
    else if (m.type === 'rewardDetails') dashboard.showRewardDetails(m.details);
  } catch (e) {
    reportError(`cannot render: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  }
});
// What the host sent before this bundle was listening (the first screen, often), through the same listener.
for (const e of early.takeQueued()) window.dispatchEvent(new MessageEvent('message', { data: e.data }));

