// The Run Overview's Problems section (browser): the run's problems as buttons that open their file at the line, and
// the tasks left out of the run with the reason. Problem texts and file names are untrusted: set as text only.
import type { OverviewModel } from '../../src/protocol/runOverview';
import { badge, codicon, el } from './dom';

/** Problems drawn with the first screen; the others right after it is painted. */
const PROBLEMS_FIRST = 30;

/** Runs `f` once the current frame is painted. */
function afterPaint(f: () => void): void {
  requestAnimationFrame(() => setTimeout(f, 0));
}

function problemItem(p: OverviewModel['problems'][number]): HTMLElement {
  const li = el('li');
  const b = el('button', `problem sev-${p.severity}`);
  b.type = 'button';
  b.dataset.index = String(p.index);
  b.title = `${p.file}${p.line ? `:${p.line}` : ''}\n${p.code}`;
  const icon = p.severity === 'error' ? 'error' : p.severity === 'warning' ? 'warning' : 'info';
  b.append(codicon(icon, `sev-${p.severity}`), el('span', 'loc', `${p.displayFile}${p.line ? `:${p.line}` : ''}`), el('span', 'msg', p.message));
  li.append(b);
  return li;
}

/**
 * The Problems section: each problem a button (the host opens its file at its line), then the tasks left out of the
 * run. On the first screen (`first`) only the first problems are laid out; the others once it is painted, unless
 * the page has moved on to another init (`generation()` is no longer the model's).
 */
export function renderProblems(m: OverviewModel, first: boolean, generation: () => number | undefined): HTMLElement {
  const s = el('section', 'problems');
  const h = el('h2', undefined, 'Problems');
  // The same count as the Runs tree's "Problems" group: the problems and the tasks left out of the run.
  h.append(badge(m.problems.length + m.problemsOmitted + m.leftOut.length + m.leftOutOmitted));
  s.append(h);
  if (m.problems.length === 0 && m.leftOut.length === 0) { s.append(el('p', 'empty', 'No problems.')); return s; }
  const ul = el('ul', 'problem-list');
  // A big run lists hundreds of problems below the fold: on the first screen the first ones are drawn with the page
  // and the others once it is painted (their layout was most of the first render's). Later renders draw them all, so
  // a scroll position down there is put back.
  const now = first ? m.problems.slice(0, PROBLEMS_FIRST) : m.problems;
  for (const p of now) ul.append(problemItem(p));
  const rest = m.problems.slice(now.length);
  if (rest.length) {
    const last = ul.lastElementChild;
    const gen = m.generation;
    afterPaint(() => { if (generation() === gen && last?.isConnected) last.after(...rest.map(problemItem)); });
  }
  for (const x of m.leftOut) {
    // Not a file position: a task the run never produced a row for, with the reason it was left out.
    const li = el('li', `left-out ${x.which}`);
    li.append(codicon(x.which === 'skipped' ? 'debug-step-over' : 'circle-slash'), el('span', 'loc', x.taskId), el('span', 'msg', `${x.which} · ${x.reason}`));
    ul.append(li);
  }
  s.append(ul);
  if (m.problemsOmitted > 0) s.append(el('p', 'note', `${m.problemsOmitted} more problems not shown.`));
  if (m.leftOutOmitted > 0) s.append(el('p', 'note', `${m.leftOutOmitted} more tasks left out not shown.`));
  return s;
}
