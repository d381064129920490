// The header of the trajectory editor: agent, ids, final_metrics beside our recount (and where they disagree), the
// attempt it was opened from, continuations, subagents, and the problems list (not-ATIF explained).
import type { TrajectoryHostMessage } from '../../src/protocol/trajectory';
import { showBidi } from '../../src/views/bidi';
import { button, codicon, duration, el, money, num } from './dom';
import { plural } from '../../src/core/format';

type Init = Extract<TrajectoryHostMessage, { type: 'init' }>;
type Totals = Init['header']['totals'];

export interface HeaderActions {
  goTo(i: number): void;
  openSubagent(i: number): void;
  openLink(id: 'testStdout' | 'verifier'): void;
  openProblem(i: number): void;
  back(): void;
}

function kv(parent: HTMLElement, k: string, v: string | null): void {
  const d = el('div', 'kv');
  d.append(el('dt', '', k), el('dd', v === null ? 'null' : '', v ?? '—'));
  parent.append(d);
}

function totalsRow(label: string, t: Totals): HTMLTableRowElement {
  const tr = el('tr');
  tr.append(el('th', '', label), el('td', '', num(t.prompt_tokens)), el('td', '', num(t.completion_tokens)), el('td', '', num(t.cached_tokens)), el('td', '', money(t.cost_usd)));
  return tr;
}

export function renderHeader(m: Init, a: HeaderActions): HTMLElement {
  const h = m.header;
  const root = el('header', 'head');
  if (m.trail.length) {
    const crumbs = el('nav', 'trail');
    crumbs.append(button('Back', 'arrow-left', () => a.back(), { id: 'back', secondary: true }));
    crumbs.append(el('span', 'note', m.trail.join(' › ')));
    root.append(crumbs);
  }
  const title = el('h1');
  title.append(codicon('history'), el('span', '', ` ${h.agent.name ?? 'Trajectory'}${h.agent.version ? ` ${h.agent.version}` : ''}`));
  if (h.agent.model) title.append(el('span', 'note', h.agent.model));
  if (h.schemaVersion) title.append(el('vscode-badge', 'version', h.schemaVersion));
  root.append(title);
  if (h.taskLevel) root.append(el('div', 'banner task-level', 'Task-level trajectory: it seeds an agent for this task (beside instruction.md); it is not an attempt\'s own trajectory.'));
  if (h.unreadable) root.append(el('div', 'banner error', `Cannot read this file: ${h.unreadable}`));
  if (h.notAtif) root.append(el('div', 'banner error not-atif', `Not ATIF: this looks like ${h.notAtif.looksLike}. ${h.notAtif.detail}`));
  if (m.attempt) {
    const at = el('div', 'attempt');
    at.append(el('span', '', `${m.attempt.task} · ${m.attempt.attempt} · `), el('span', `outcome outcome-${m.attempt.outcome}`, m.attempt.outcome),
      el('span', '', ` · reward ${m.attempt.reward === null ? 'not measured' : String(m.attempt.reward)}`));
    for (const l of m.attempt.links) at.append(button(l.label, l.id === 'verifier' ? 'folder' : 'output', () => a.openLink(l.id), { secondary: true }));
    root.append(at);
  }
  const ids = el('dl', 'ids');
  kv(ids, 'session', h.sessionId); kv(ids, 'trajectory', h.trajectoryId);
  kv(ids, 'steps', String(m.rows.length)); kv(ids, 'tool calls', `${h.toolCalls} (${h.paired} paired)`);
  kv(ids, 'elapsed', duration(h.elapsedMs));
  if (h.agent.toolDefinitions) kv(ids, 'tools defined', String(h.agent.toolDefinitions));
  root.append(ids);
  if (h.notes) root.append(el('p', 'notes', h.notes));

  const t = el('table', 'totals');
  const head = el('tr');
  for (const c of ['', 'prompt', 'completion', 'cached', 'cost']) head.append(el('th', '', c));
  t.append(head, totalsRow('recount', h.totals));
  if (h.subagents.length) t.append(totalsRow('with subagents', h.totalsWithSubagents));
  root.append(t);
  if (h.finalMetrics) {
    const d = el('details', 'final-metrics');
    d.append(el('summary', '', h.disagreements.length ? `final_metrics disagrees with the recount (${h.disagreements.length})` : 'final_metrics agrees with the recount'), el('pre', 'json', h.finalMetrics));
    root.append(d);
  }
  for (const d of h.disagreements) {
    root.append(el('div', 'banner warn disagreement', `final_metrics ${d.field}: recorded ${d.recorded}, recount ${d.recount}${d.recountWithSubagents !== d.recount ? ` (${d.recountWithSubagents} with subagents)` : ''}, difference ${+(d.recorded - d.recount).toFixed(6)}`));
  }
  if (h.files.length > 1) {
    const c = el('div', 'continuations');
    c.append(el('span', 'note', 'Continued in: '));
    h.files.slice(1).forEach((f) => {
      const name = f.path.split('/').pop() ?? f.path;
      c.append(button(`${name} (from #${f.firstStep + 1}${f.foldedCopies ? `, ${f.foldedCopies} copied folded` : ''})`, 'debug-continue', () => a.goTo(f.firstStep), { secondary: true }));
    });
    root.append(c);
  }
  if (h.subagents.length) {
    const s = el('div', 'subagents');
    s.append(el('span', 'note', 'Subagents: '));
    h.subagents.forEach((sub, i) => {
      const label = `${sub.agent ?? sub.ref} (${sub.kind}${sub.unresolved ? ', unresolved' : `, ${plural(sub.steps, 'step')}`})`;
      const b = button(label, 'type-hierarchy-sub', () => a.openSubagent(i), { secondary: true, title: sub.unresolved ?? sub.path ?? sub.ref });
      b.classList.add('subagent-link');
      b.dataset.subagent = String(i);
      s.append(b);
    });
    root.append(s);
  }
  if (h.problems.length) {
    const d = el('details', 'problems');
    d.open = !!h.notAtif || !!h.unreadable;
    d.append(el('summary', '', `Problems (${h.problems.length + h.moreProblems})`));
    const ul = el('ul');
    h.problems.forEach((p, i) => {
      const li = el('li', `sev-${p.severity}`);
      const link = el('a', 'ptr', `${p.file.split('/').pop()}#${p.pointer || '/'}`);
      link.href = '#';
      link.addEventListener('click', (e) => { e.preventDefault(); a.openProblem(i); });
      li.append(codicon(p.severity === 'error' ? 'error' : p.severity === 'warning' ? 'warning' : 'info'), ' ', link, ` ${showBidi(p.message)}`);
      ul.append(li);
    });
    if (h.moreProblems) ul.append(el('li', 'note', `… and ${h.moreProblems} more (harbor-runs trajectory lists every one).`));
    d.append(ul);
    root.append(d);
  }
  return root;
}
