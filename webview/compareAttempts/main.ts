// The Compare Attempts webview (bundled as out/webview/compareAttempts.js): two attempts' trajectories side by side,
// aligned by step (src/core/compare/align.ts), each row with both steps' source, summary, tool names, tokens and
// duration; the first divergence is marked and scrolled to on open ("First divergence", "Next difference" and n / p
// move between differences). "Diff verifier output" opens VS Code's diff editor (host side). A side without a
// trajectory says why. Handshake `ready` → `init` (src/protocol/compareAttempts.ts), every message validated, text as text.
import '../lib/zodJitless';
import { type AlignedRowTuple, type AttemptSide, type CompareAttemptsModel, type WebviewMessage, parseHostMessage } from '../../src/protocol/compareAttempts';
import { formatReward, plural } from '../../src/core/format';
import { VirtualList, codicon, el } from '../lib/virtualList';
import { listenToHost } from '../lib/hostChannel';

interface VsCodeApi { postMessage(m: unknown): void }
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);

const SOURCE_ICON: Record<AttemptSide['steps'][number]['source'], string> = { system: 'gear', user: 'account', agent: 'hubot', unknown: 'question' };
const KIND_LABEL: Record<AlignedRowTuple[0], string> = { same: 'same', changed: 'changed', left: 'only left', right: 'only right' };

const n = (v: number | null) => (v === null ? '—' : String(v));
function dur(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${String(Math.floor(s % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

function stepCell(side: AttemptSide, index: number | null, which: 'left' | 'right'): HTMLElement {
  const c = el('div', `step ${which}`);
  if (index === null) { c.classList.add('gap'); return c; }
  const s = side.steps[index];
  if (!s) return c;
  c.append(el('span', 'num', `#${s.index + 1}`), codicon(SOURCE_ICON[s.source], s.source));
  if (s.tools.length) c.append(el('span', 'tools', s.tools.join(', ')));
  const sum = el('span', 'sum', s.summary);
  sum.title = s.summary;
  c.append(sum);
  const tokens = el('span', 'tokens', `${n(s.promptTokens)}↑ ${n(s.completionTokens)}↓`);
  tokens.title = `prompt tokens ${n(s.promptTokens)}, completion tokens ${n(s.completionTokens)}${s.costUsd !== null ? `, $${s.costUsd.toFixed(4)}` : ''}`;
  c.append(tokens, el('span', 'dur', dur(s.durationMs)));
  return c;
}

function sideHeader(s: AttemptSide, which: 'left' | 'right'): HTMLElement {
  const h = el('div', `side-head ${which}`);
  h.append(el('div', 'title', s.title), el('div', `meta out-${s.outcome}`, `${s.outcome} · reward ${formatReward(s.reward)}${s.reward === null ? ' (not measured)' : ''}`));
  if (s.unavailable) h.append(el('div', 'unavailable', s.unavailable));
  else {
    h.append(el('div', 'meta', `${plural(s.steps.length, 'step')} · prompt ${n(s.promptTokens)} · completion ${n(s.completionTokens)}${s.costUsd !== null ? ` · $${s.costUsd.toFixed(4)}` : ''} · elapsed ${dur(s.elapsedMs)}`));
    const open = el('button', 'link', 'Open trajectory');
    open.type = 'button';
    open.addEventListener('click', () => post({ type: 'openTrajectory', side: which }));
    h.append(open);
  }
  return h;
}

let list: VirtualList<AlignedRowTuple> | undefined;

function render(m: CompareAttemptsModel): void {
  const app = document.getElementById('app')!;
  app.removeAttribute('aria-busy');
  const head = el('header');
  head.append(el('h1', undefined, `Compare attempts: ${m.task}`));
  const fd = m.firstDivergence;
  const summary = el('p', 'summary');
  if (m.left.unavailable || m.right.unavailable) summary.textContent = 'One side has no trajectory to align; its steps are listed on their own. The verifier outputs can still be compared.';
  else if (!fd) summary.textContent = `The trajectories are the same step for step (${plural(m.counts.same, 'step')}).`;
  else summary.textContent = `First divergence at row ${fd.row + 1} (left ${fd.left === null ? '—' : `#${fd.left + 1}`}, right ${fd.right === null ? '—' : `#${fd.right + 1}`}) · ${m.counts.same} same · ${m.counts.changed} changed · ${m.counts.left} only left · ${m.counts.right} only right`;
  const actions = el('div', 'actions');
  const diffs = m.rows.map((r, i) => (r[0] === 'same' ? -1 : i)).filter((i) => i >= 0);
  const btn = (label: string, icon: string, f: () => void, enabled = true) => {
    const b = el('button', 'action');
    b.type = 'button';
    b.append(codicon(icon), document.createTextNode(` ${label}`));
    b.disabled = !enabled;
    b.addEventListener('click', f);
    actions.append(b);
    return b;
  };
  const go = (i: number) => {
    list!.select(i, true);
    post({ type: 'rendered', rows: m.rows.length, selected: i, domRows: list!.renderedRows() });
  };
  const next = (dir: 1 | -1) => {
    const cur = list!.selected ?? -1;
    const target = dir > 0 ? diffs.find((i) => i > cur) : [...diffs].reverse().find((i) => i < cur);
    if (target !== undefined) go(target);
  };
  btn('First divergence', 'debug-step-into', () => { if (fd) go(fd.row); }, fd !== null);
  btn('Previous difference', 'arrow-up', () => next(-1), diffs.length > 0);
  btn('Next difference', 'arrow-down', () => next(1), diffs.length > 0);
  btn('Diff verifier output', 'diff', () => post({ type: 'diffVerifier' }));
  head.append(summary, actions);
  const sides = el('div', 'side-heads');
  sides.append(sideHeader(m.left, 'left'), sideHeader(m.right, 'right'));
  list = new VirtualList<AlignedRowTuple>(26, ([kind, l, r], i, selected) => {
    const row = el('div', `arow kind-${kind}${selected ? ' selected' : ''}${fd && i === fd.row ? ' divergence' : ''}`);
    const mark = el('span', 'mark');
    mark.append(codicon(kind === 'same' ? 'blank' : kind === 'changed' ? 'diff-modified' : kind === 'left' ? 'diff-removed' : 'diff-added', KIND_LABEL[kind]));
    if (fd && i === fd.row) mark.append(codicon('debug-breakpoint-unsupported', 'first divergence'));
    row.append(stepCell(m.left, l, 'left'), mark, stepCell(m.right, r, 'right'));
    row.addEventListener('click', () => { list!.select(i); });
    return row;
  }, 'Aligned steps');
  list.root.addEventListener('keydown', (e) => {
    if (e.key === 'n') { next(1); e.preventDefault(); }
    else if (e.key === 'p') { next(-1); e.preventDefault(); }
  });
  app.replaceChildren(head, sides, list.root);
  list.setItems(m.rows);
  if (fd) go(fd.row);
  else post({ type: 'rendered', rows: m.rows.length, selected: null, domRows: list.renderedRows() });
}

listenToHost(post, parseHostMessage, (msg) => {
  if (msg.type === 'init') render(msg.model);
  else document.getElementById('app')!.replaceChildren(el('p', 'empty', msg.message));
});
post({ type: 'ready' });
