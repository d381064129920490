// The Compare Runs webview (bundled as out/webview/compareRuns.js): sides with totals and differences, the merged view
// toggle and its note, then every task (virtualised), regressions and improvements first, filterable by change and
// text. Click a cell: its attempt in the Runs tree; "Compare" on a row: the two attempts step by step. Handshake:
// `ready` → `init` (src/protocol/compareRuns.ts), every message validated; all text set as text.
import '../lib/zodJitless';
import * as z from 'zod/mini';
import { type CompareRunsModel, type CompareTaskRow, type WebviewMessage, parseHostMessage } from '../../src/protocol/compareRuns';
import { RUN_KIND_LABELS, plural } from '../../src/core/format';
import { TASK_CHANGES, type TaskChange } from '../../src/core/compare/runs';
import { VirtualList, codicon, el } from '../lib/virtualList';
import { listenToHost } from '../lib/hostChannel';

interface VsCodeApi { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void }
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();

const ViewStateSchema = z.object({ text: z.catch(z.string().check(z.maxLength(1000)), ''), change: z.catch(z.string().check(z.maxLength(40)), '') });
let state = ((): z.infer<typeof ViewStateSchema> => { const r = ViewStateSchema.safeParse(vscode.getState()); return r.success ? r.data : { text: '', change: '' }; })();
let model: CompareRunsModel | undefined;

const post = (m: WebviewMessage) => vscode.postMessage(m);

const CHANGE_LABEL: Record<TaskChange, string> = {
  regressed: 'regressed', improved: 'improved', 'only-in-some': 'not in every run', 'not-comparable': 'not comparable', unchanged: 'unchanged',
};
const CHANGE_ICON: Record<TaskChange, string> = {
  regressed: 'arrow-down', improved: 'arrow-up', 'only-in-some': 'circle-slash', 'not-comparable': 'question', unchanged: 'dash',
};

const fmt = (v: number | null, d = 3) => (v === null ? '—' : v.toFixed(d));
const signed = (v: number | null) => (v === null ? '' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(3)}`);
const count = (v: number | null) => (v === null ? '—' : v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : String(v));
function dur(sec: number | null): string {
  if (sec === null) return '—';
  if (sec < 60) return `${sec.toFixed(1)}s`;
  const m = Math.floor(sec / 60);
  return m < 60 ? `${m}m ${String(Math.floor(sec % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

function sidesTable(m: CompareRunsModel): HTMLElement {
  const t = el('table', 'sides');
  const head = el('tr');
  head.append(el('th', undefined, ''), ...m.sides.map((s) => el('th', 'side', s.letter)), ...m.sides.slice(1).map((s) => el('th', 'diff', `${s.letter}−A`)));
  t.append(head);
  type S = CompareRunsModel['sides'][number];
  const row = (name: string, f: (s: S) => string, diff?: (s: S) => number | null) => {
    const tr = el('tr');
    tr.append(el('th', 'metric', name), ...m.sides.map((s) => el('td', 'num', f(s))));
    if (diff) {
      for (const s of m.sides.slice(1)) {
        const v = diff(s);
        tr.append(el('td', `num diff ${v === null || Math.abs(v) < 1e-9 ? '' : v < 0 ? 'worse' : 'better'}`, signed(v)));
      }
    }
    t.append(tr);
  };
  row('tasks', (s) => String(s.all.tasks));
  row('attempts', (s) => String(s.all.attempts));
  row('passed / measured', (s) => `${s.all.passed}/${s.all.measured}`);
  row('tasks not measured', (s) => String(s.all.allInfra));
  row('pass@1 (common tasks)', (s) => fmt(s.common.passAt1), (s) => s.diff?.passAt1 ?? null);
  if (m.k > 1) row(`pass@${m.k} (common tasks)`, (s) => fmt(s.common.passAtK), (s) => s.diff?.passAtK ?? null);
  row('mean reward (common tasks)', (s) => fmt(s.common.meanReward), (s) => s.diff?.meanReward ?? null);
  row('regressed / improved', (s) => (s.diff ? `${s.counts.regressed} / ${s.counts.improved}` : '—'));
  row('input / output tokens', (s) => `${count(s.usage.inputTokens)} / ${count(s.usage.outputTokens)}`);
  row('cost', (s) => (s.usage.costUsd === null ? '—' : `$${s.usage.costUsd.toFixed(2)}`));
  row('agent time (sum)', (s) => dur(s.usage.durationSec));
  return t;
}

function header(m: CompareRunsModel): HTMLElement {
  const h = el('header');
  h.append(el('h1', undefined, `Comparing ${plural(m.sides.length, 'run')}`));
  const ul = el('ul', 'side-list');
  for (const s of m.sides) {
    const li = el('li');
    li.append(el('span', 'letter', s.letter), el('span', 'label', s.label), el('span', 'kind', RUN_KIND_LABELS[s.kind]));
    if (s.mergedFrom.length > 1) li.append(el('div', 'merged-from', `merged from ${s.mergedFrom.length} runs: ${s.mergedFrom.join(', ')}`));
    ul.append(li);
  }
  h.append(ul, el('p', 'note', `A is the baseline. Differences are over the ${plural(m.commonTasks, 'task')} every run has; a null reward is not measured and never counted as 0.`));
  if (m.canMerge || m.merge) {
    const label = el('label', 'merge');
    const box = el('input');
    box.type = 'checkbox';
    box.id = 'merge';
    box.checked = m.merge;
    box.addEventListener('change', () => post({ type: 'setMerge', merge: box.checked }));
    label.append(box, document.createTextNode(' Merge runs of the same agent and model into one (a view choice)'));
    h.append(label);
  }
  if (m.mergeNote) h.append(el('p', 'merge-note', m.mergeNote));
  return h;
}

function visibleRows(m: CompareRunsModel): CompareTaskRow[] {
  const q = state.text.toLowerCase();
  return m.tasks.filter((t) => (!state.change || t.change === state.change) && (!q || t.label.toLowerCase().includes(q) || t.id.toLowerCase().includes(q)));
}

let list: VirtualList<CompareTaskRow> | undefined;

function rowEl(m: CompareRunsModel, t: CompareTaskRow, _i: number, selected: boolean): HTMLElement {
  const r = el('div', `task-row change-${t.change}${selected ? ' selected' : ''}`);
  const change = el('span', 'change');
  change.append(codicon(CHANGE_ICON[t.change], CHANGE_LABEL[t.change]), el('span', undefined, CHANGE_LABEL[t.change]));
  const name = el('span', 'task', t.label);
  name.title = t.id;
  r.append(change, name);
  t.cells.forEach((c, side) => {
    const cell = el('button', `cell ${c ? `out-${c.outcome}` : 'absent'}`, c ? c.text : '— absent');
    cell.type = 'button';
    cell.title = `${m.sides[side].letter}: ${c ? `${c.text} (${plural(c.attempts, 'attempt')})` : 'no such task in this run'}`;
    if (c) cell.addEventListener('click', () => post({ type: 'openCell', taskId: t.id, side }));
    else cell.disabled = true;
    r.append(cell);
  });
  const present = t.cells.map((c, i) => (c ? i : -1)).filter((i) => i >= 0);
  const cmp = el('button', 'compare', 'Compare');
  cmp.type = 'button';
  cmp.title = 'Compare the first attempts of this task step by step';
  if (present.length >= 2) {
    const right = present.find((i) => i > 0 && t.cells[i]?.text !== t.cells[present[0]]?.text) ?? present[1];
    cmp.addEventListener('click', () => post({ type: 'compareAttempts', taskId: t.id, left: present[0], right }));
  } else cmp.disabled = true;
  r.append(cmp);
  return r;
}

function render(m: CompareRunsModel): void {
  const app = document.getElementById('app')!;
  app.removeAttribute('aria-busy');
  const filters = el('div', 'filters');
  const text = el('input', 'text-filter');
  text.type = 'search';
  text.placeholder = 'Filter tasks';
  text.value = state.text;
  const sel = el('select', 'change-filter');
  sel.setAttribute('aria-label', 'Change');
  const counts = new Map<string, number>();
  for (const t of m.tasks) counts.set(t.change, (counts.get(t.change) ?? 0) + 1);
  sel.append(new Option(`every change (${m.tasks.length})`, ''));
  for (const c of TASK_CHANGES) if (counts.get(c)) sel.append(new Option(`${CHANGE_LABEL[c]} (${counts.get(c)})`, c));
  sel.value = state.change;
  filters.append(text, sel);
  const cols = el('div', 'task-row head');
  cols.append(el('span', 'change', 'change'), el('span', 'task', 'task'), ...m.sides.map((s) => el('span', 'cell', s.letter)), el('span', 'compare', ''));
  list = new VirtualList<CompareTaskRow>(28, (t, i, s) => rowEl(m, t, i, s), 'Tasks');
  const wrap = el('section', 'tasks');
  wrap.style.setProperty('--sides', String(m.sides.length));
  wrap.append(filters, cols, list.root);
  if (m.tasksOmitted) wrap.append(el('p', 'note', `${m.tasksOmitted} more tasks not listed.`));
  app.replaceChildren(header(m), sidesTable(m), wrap);
  const refresh = () => {
    const rows = visibleRows(m);
    list!.setItems(rows);
    post({ type: 'rendered', rows: rows.length, firstTask: rows[0]?.id ?? null, domRows: list!.renderedRows() });
  };
  text.addEventListener('input', () => { state = { ...state, text: text.value }; vscode.setState(state); refresh(); });
  sel.addEventListener('change', () => { state = { ...state, change: sel.value }; vscode.setState(state); refresh(); });
  refresh();
}

listenToHost(post, parseHostMessage, (msg) => {
  if (msg.type === 'init') { model = msg.model; render(model); }
  else {
    const app = document.getElementById('app')!;
    app.replaceChildren(el('p', 'empty', `A run compared is no longer in the workspace (${msg.runId}).`));
  }
});
post({ type: 'ready' });
