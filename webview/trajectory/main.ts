// The trajectory editor's webview (bundled as out/webview/trajectory.js). Handshake: early.ts posts `ready`; the host answers
// `init` (header + one outline row per step read so far), then `rows` as more are read and `header` once everything
// is (the recount complete), and sends a step's full content when it is selected. Search runs in the host over every
// step; this page shows the count, marks matching rows and steps through them. What the user was looking at (step,
// search, expanded, raw) is kept with the webview's state and sent to the host (`viewState`), which keeps it per file and
// hands it back in `init`, so the editor comes back the same after a window reload or when the file is opened again.
// Keys: j / k / ↓ / ↑ next / previous step, / or Ctrl+F search, Enter / Shift+Enter next / previous match,
// g go to step, e / E expand / collapse all, r raw JSON, c copy step as JSON.
import '../lib/zodJitless';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import { parseTrajectoryHostMessage, type TrajectoryHostMessage, type TrajectoryWebviewMessage } from '../../src/protocol/trajectory';
import { earlyChannel } from '../lib/earlyChannel';
import { showHostFailure } from '../lib/hostChannel';
import { StepList } from './list';
import { renderHeader } from './header';
import { renderStep } from './step';
import { button, el } from './dom';
import { plural } from '../../src/core/format';

// The page's first script (early.ts) took the API and said `ready`; what the host sent since is replayed below.
const early = earlyChannel('trajectory');
performance.mark('trajectory:bundle');
const vscode = early.api;
const post = (m: TrajectoryWebviewMessage) => vscode.postMessage(m);

type Init = Extract<TrajectoryHostMessage, { type: 'init' }>;
type StepMsg = Extract<TrajectoryHostMessage, { type: 'step' }>;
type SearchMsg = Extract<TrajectoryHostMessage, { type: 'searchResult' }>;

/** What survives a reload (webview state). */
interface Saved { selected?: number; query?: string; expandAll?: boolean | null; raw?: boolean }
const saved: Saved = ((): Saved => {
  const s = vscode.getState() as Saved | undefined;
  return s && typeof s === 'object' ? {
    selected: typeof s.selected === 'number' ? s.selected : undefined, query: typeof s.query === 'string' ? s.query.slice(0, 10_000) : undefined,
    expandAll: typeof s.expandAll === 'boolean' ? s.expandAll : null, raw: s.raw === true,
  } : {};
})();

let init: Init | null = null;
let current: StepMsg | null = null;
let search: SearchMsg | null = null;
let hitPos = -1;
let rawView = saved.raw ?? false;
let expandAll: boolean | null = saved.expandAll ?? null;
/** A step asked for (deep link, restored state) that is not read yet: selected when it arrives. */
let wantStep: number | null = null;
/** wantStep for "the last step, whatever the count" (End before every row is in). */
const LAST_STEP = Number.MAX_SAFE_INTEGER;
document.body.classList.toggle('raw', rawView);

function save(): void {
  vscode.setState({ selected: list.selected ?? undefined, query: searchBox.value, expandAll, raw: rawView } satisfies Saved);
  // The host keeps it too (the page's own state can come back older after a window reload) and hands it back in `init`.
  if (init && !init.trail.length) post({ type: 'viewState', state: { selected: wantStep ?? list.selected, query: searchBox.value.slice(0, 10_000), expandAll, raw: rawView } });
}

const app = document.getElementById('app')!;
const headBox = el('div', 'head-box');
const toolbar = el('div', 'toolbar');
const list = new StepList((i) => select(i));
const detail = el('div', 'detail');
detail.tabIndex = -1;
const main = el('div', 'split');
main.append(list.root, detail);

const searchBox = el('input', 'search');
searchBox.id = 'search';
searchBox.type = 'search';
searchBox.placeholder = 'Search messages, reasoning, tool arguments, observations ( / )';
searchBox.setAttribute('aria-label', 'Search');
searchBox.value = saved.query ?? '';
const loadingBox = el('div', 'loading-box');
loadingBox.setAttribute('role', 'status');
const count = el('span', 'count');
count.id = 'match-count';
count.setAttribute('aria-live', 'polite');
const goto = el('input', 'goto');
goto.id = 'goto';
goto.type = 'number';
goto.min = '1';
goto.placeholder = 'Step #';
goto.setAttribute('aria-label', 'Go to step');

toolbar.append(searchBox, count,
  button('', 'arrow-up', () => nextHit(-1), { id: 'prev-hit', title: 'Previous match (Shift+Enter)', secondary: true }),
  button('', 'arrow-down', () => nextHit(1), { id: 'next-hit', title: 'Next match (Enter)', secondary: true }),
  goto,
  button('', 'expand-all', () => setExpand(true), { id: 'expand-all', title: 'Expand all (e)', secondary: true }),
  button('', 'collapse-all', () => setExpand(false), { id: 'collapse-all', title: 'Collapse all (E)', secondary: true }),
  button('Raw', 'json', () => toggleRaw(), { id: 'raw-toggle', title: 'Raw JSON of the step (r)', secondary: true }),
  button('', 'copy', () => { if (list.selected !== null) post({ type: 'copyStep', index: list.selected }); }, { id: 'copy-step', title: 'Copy step as JSON (c)', secondary: true }),
  button('', 'link', () => post({ type: 'copyLink', index: list.selected }), { id: 'copy-link', title: 'Copy link to this step', secondary: true }),
  button('', 'go-to-file', () => post({ type: 'openAsText' }), { id: 'open-text', title: 'Open the file as text', secondary: true }),
);

function reportRendered(): void {
  post({ type: 'rendered', selected: list.selected, rows: init?.rows.length ?? 0, domNodes: document.getElementsByTagName('*').length, view: rawView ? 'raw' : 'timeline' });
}

function select(i: number, focusList = true): void {
  if (!init || i < 0 || i >= init.rows.length) return;
  list.select(i);
  wantStep = null;
  save();
  post(rawView ? { type: 'getRaw', index: i } : { type: 'getStep', index: i });
  if (focusList) list.root.focus({ preventScroll: true });
}

function move(delta: number): void {
  if (!init?.rows.length) return;
  select(Math.max(0, Math.min(init.rows.length - 1, (list.selected ?? -1) + delta)));
}

function setExpand(open: boolean): void {
  expandAll = open;
  save();
  for (const d of detail.querySelectorAll('details')) d.open = open;
}

function toggleRaw(): void {
  rawView = !rawView;
  save();
  document.body.classList.toggle('raw', rawView);
  if (!init) return;
  if (list.selected !== null) select(list.selected, false);
  else if (!init.rows.length) post({ type: 'getRaw', index: null });
}

function nextHit(dir: number): void {
  if (!search || !search.steps.length) return;
  const sel = list.selected ?? -1;
  const idx = search.steps.map((s) => s.index);
  if (dir > 0) hitPos = idx.findIndex((i) => i > sel);
  else { hitPos = -1; for (let k = idx.length - 1; k >= 0; k--) if (idx[k] < sel) { hitPos = k; break; } }
  if (hitPos === -1) hitPos = dir > 0 ? 0 : idx.length - 1;
  select(idx[hitPos], false);
  showCount();
}

function showCount(): void {
  if (!search || !searchBox.value) { count.textContent = ''; return; }
  const where = hitPos >= 0 ? `${hitPos + 1} / ${plural(search.steps.length, 'step')}` : plural(search.steps.length, 'step');
  const sofar = search.partial ? ' so far (still reading)' : '';
  count.textContent = search.total ? `${plural(search.total, 'match', 'matches')} · ${where}${sofar}` : `No matches${sofar}`;
  count.dataset.ms = String(Math.round(search.ms));
  count.dataset.query = search.query;
  count.dataset.partial = String(search.partial);
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;
searchBox.addEventListener('input', () => {
  clearTimeout(searchTimer);
  save();
  searchTimer = setTimeout(() => post({ type: 'search', query: searchBox.value.slice(0, 10_000) }), 80);
});
searchBox.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') { e.preventDefault(); nextHit(e.shiftKey ? -1 : 1); }
  if (e.key === 'Escape') { list.root.focus(); }
});
goto.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') { e.preventDefault(); select(Number(goto.value) - 1); }
});

document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement;
  if ((e.key === 'f' && (e.ctrlKey || e.metaKey))) { e.preventDefault(); searchBox.focus(); searchBox.select(); return; }
  if (t instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
  switch (e.key) {
    case 'j': case 'ArrowDown': e.preventDefault(); move(1); break;
    case 'k': case 'ArrowUp': e.preventDefault(); move(-1); break;
    case '/': e.preventDefault(); searchBox.focus(); searchBox.select(); break;
    case 'g': e.preventDefault(); goto.focus(); goto.select(); break;
    case 'e': setExpand(true); break;
    case 'E': setExpand(false); break;
    case 'r': toggleRaw(); break;
    case 'c': if (list.selected !== null) post({ type: 'copyStep', index: list.selected }); break;
    case 'Home': e.preventDefault(); select(0); break;
    case 'End':
      e.preventDefault();
      if (!init) break;
      select(init.rows.length - 1);
      // Pressed while a long outline is still arriving: the last step, not the last row in so far (selected once in).
      if (rowsComing(init)) { wantStep = LAST_STEP; save(); }
      break;
    default: break;
  }
});

function openSubagent(i: number): void { post({ type: 'openSubagent', index: i }); }

function subagentLabel(i: number): string {
  const s = init?.header.subagents[i];
  return s ? `Subagent: ${s.agent ?? s.ref}${s.unresolved ? ' (unresolved)' : ` · ${plural(s.steps, 'step')}`}` : `Subagent ${i}`;
}

const headerActions = {
  goTo: (i: number) => select(i), openSubagent, back: () => post({ type: 'back' }),
  openLink: (id: 'testStdout' | 'verifier') => post({ type: 'openLink', id }), openProblem: (i: number) => post({ type: 'openProblem', index: i }),
};

function showLoading(l: Init['loading']): void {
  if (!l) { loadingBox.replaceChildren(); loadingBox.hidden = true; document.body.classList.remove('loading'); return; }
  const mb = (n: number) => (n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0);
  loadingBox.hidden = false;
  document.body.classList.add('loading');
  loadingBox.replaceChildren(el('div', 'banner reading', `Reading… ${plural(l.steps, 'step', undefined, (n) => n.toLocaleString('en-US'))} so far (${mb(l.bytesRead)} of ${mb(l.bytesTotal)} MB). The totals, the recount against final_metrics, continuations and subagents are complete once everything is read.`));
}

function showHeader(): void {
  if (!init) return;
  // Drawn again as steps arrive: what the user opened stays open.
  const open = new Set([...headBox.querySelectorAll('details')].filter((d) => d.open).map((d) => d.className));
  headBox.replaceChildren(renderHeader(init, headerActions), loadingBox);
  for (const d of headBox.querySelectorAll('details')) if (open.has(d.className)) d.open = true;
}

/** More rows are coming: the file is still read, or a long outline is still arriving in slices. */
const rowsComing = (m: { loading: Init['loading']; more: number }): boolean => m.loading !== null || m.more > 0;

/** The step asked for, when it is read; else it is selected when it arrives. */
function selectWanted(): void {
  if (!init || wantStep === null) return;
  if (wantStep < init.rows.length) select(wantStep, false);
  else if (!rowsComing(init)) select(Math.max(0, init.rows.length - 1), false);
}

function showInit(m: Init): void {
  init = m; current = null; search = null; hitPos = -1;
  if (m.view) {
    searchBox.value = m.view.query;
    expandAll = m.view.expandAll;
    rawView = m.view.raw;
    document.body.classList.toggle('raw', rawView);
  }
  showLoading(m.loading);
  showHeader();
  app.replaceChildren(headBox, toolbar, main);
  app.setAttribute('aria-busy', 'false');
  list.setHits(new Map());
  list.setRows(m.rows);
  count.textContent = '';
  if (searchBox.value) post({ type: 'search', query: searchBox.value });
  if (m.rows.length === 0) {
    detail.replaceChildren(el('p', 'empty', m.header.notAtif || m.header.unreadable ? 'No steps could be read; the problems above say why. The raw text is below.' : 'No steps.'));
    post({ type: 'getRaw', index: null });
  } else {
    const want = m.focus ?? (m.trail.length ? 0 : m.view?.selected ?? list.selected ?? saved.selected ?? 0);
    if (want < m.rows.length || !rowsComing(m)) select(Math.min(Math.max(0, want), m.rows.length - 1), false);
    else { select(0, false); wantStep = want; save(); }
  }
  if (expandAll !== null) setExpand(expandAll);
  // The first screen drawn, then painted (the frame after it; the benchmark reads these marks, bench/trajectoryPaint.bench.ts).
  if (!performance.getEntriesByName('trajectory:drawn').length) {
    performance.mark('trajectory:drawn');
    requestAnimationFrame(() => setTimeout(() => performance.mark('trajectory:painted'), 0));
  }
  reportRendered();
}

function moreRows(m: Extract<TrajectoryHostMessage, { type: 'rows' }>): void {
  if (!init || m.from !== init.rows.length || init.trail.length) return;
  init.rows = init.rows.concat(m.rows);
  init.loading = m.loading;
  init.more = m.more;
  list.setRows(init.rows);
  showLoading(m.loading);
  showHeader();
  selectWanted();
  reportRendered();
}

function finalHeader(m: Extract<TrajectoryHostMessage, { type: 'header' }>): void {
  if (!init || init.trail.length) return;
  init.header = m.header;
  init.loading = m.loading;
  showLoading(m.loading);
  showHeader();
  selectWanted();
  // The search covered the steps read so far: once more over all of them.
  if (searchBox.value && search?.partial) post({ type: 'search', query: searchBox.value });
  reportRendered();
}

function receive(m: TrajectoryHostMessage): void {
  switch (m.type) {
    case 'init': showInit(m); break;
    case 'rows': moreRows(m); break;
    case 'header': finalHeader(m); break;
    case 'step': {
      if (m.step.index !== list.selected || rawView) return;
      current = m;
      detail.replaceChildren(renderStep(m, { openSubagent, subagentLabel, query: searchBox.value, expandAll }));
      detail.scrollTop = 0;
      reportRendered();
      break;
    }
    case 'raw': {
      if (m.index !== null && m.index !== list.selected) return;
      const box = el('div', 'raw-view');
      const pre = el('pre', 'json raw', m.text);
      box.append(pre);
      if (m.totalChars > m.text.length) box.append(el('div', 'note', `Showing ${m.text.length.toLocaleString('en-US')} of ${m.totalChars.toLocaleString('en-US')} characters; "Open the file as text" shows all of it.`));
      if (m.index === null) detail.append(box); else detail.replaceChildren(box);
      reportRendered();
      break;
    }
    case 'searchResult': {
      if (m.query !== searchBox.value) return;
      search = m;
      hitPos = list.selected === null ? -1 : m.steps.findIndex((s) => s.index === list.selected);
      list.setHits(new Map(m.steps.map((s) => [s.index, s.count])));
      showCount();
      if (current && !rawView) detail.replaceChildren(renderStep(current, { openSubagent, subagentLabel, query: searchBox.value, expandAll }));
      break;
    }
    case 'failed': showHostFailure(m); break;
    case 'focus':
      if (init && m.index >= init.rows.length && rowsComing(init)) wantStep = m.index;
      else select(Math.min(m.index, Math.max(0, (init?.rows.length ?? 1) - 1)), false);
      break;
  }
}

window.addEventListener('message', (ev: MessageEvent) => {
  const r = parseTrajectoryHostMessage(ev.data);
  if (!r.ok) { post({ type: 'error', message: `dropped a host message: ${r.error}`.slice(0, 1000) }); return; }
  try { receive(r.message); } catch (e) { post({ type: 'error', message: `render failed: ${String(e)}`.slice(0, 1000) }); }
});
document.addEventListener('securitypolicyviolation', (e) => post({ type: 'cspViolation', directive: e.violatedDirective.slice(0, 200), blocked: String(e.blockedURI).slice(0, 500) }));
// What the host sent before this bundle was listening (the header and the outline's first rows, often).
for (const e of early.takeQueued()) window.dispatchEvent(new MessageEvent('message', { data: e.data }));
