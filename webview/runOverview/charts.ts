// Small SVG charts of the dashboard, drawn with the theme's colours: the outcome bar, the pass@k curve, the reward
// histogram and the per-task scatter of cost / tokens / time against reward. Labels are SVG text nodes (textContent).
import type { Dashboard, PassAtRow, RewardDistribution, ScatterPoint } from '../../src/protocol/dashboard';
import { showBidi } from '../../src/views/bidi';
import { el, fmtCost, fmtDuration, fmtInt, fmtReward, outcomeColor, svg, themeColor } from './dom';
import { plural } from '../../src/core/format';

export interface OutcomeCount { outcome: string; label: string; count: number }

/** A stacked horizontal bar of the outcomes, with a legend; a click on a part calls `onPick(outcome)`. */
export function outcomeBar(counts: OutcomeCount[], total: number, onPick: (o: string) => void): HTMLElement {
  const wrap = el('div', 'outcome-bar-wrap');
  const bar = el('div', 'outcome-bar');
  bar.setAttribute('role', 'img');
  bar.setAttribute('aria-label', counts.map((c) => `${c.label} ${c.count}`).join(', '));
  const legend = el('div', 'outcome-legend');
  for (const c of counts) {
    if (c.count === 0) continue;
    const part = el('button', `seg o-${c.outcome}`);
    part.type = 'button';
    part.style.flexGrow = String(c.count);
    part.style.background = outcomeColor(c.outcome);
    part.title = `${c.label}: ${c.count} of ${total} (${((c.count / Math.max(1, total)) * 100).toFixed(1)}%) — filter the task table`;
    part.setAttribute('aria-label', part.title);
    part.addEventListener('click', () => onPick(c.outcome));
    bar.append(part);
    const item = el('span', 'legend-item');
    const sw = el('span', 'swatch');
    sw.style.background = outcomeColor(c.outcome);
    item.append(sw, el('span', undefined, `${c.label} ${c.count}`));
    legend.append(item);
  }
  wrap.append(bar, legend);
  return wrap;
}

const W = 360;
const H = 180;
const PAD = { l: 40, r: 12, t: 10, b: 28 };

function frame(label: string): SVGSVGElement {
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img' });
  s.setAttribute('aria-label', label);
  return s;
}

function axisText(x: number, y: number, text: string, anchor = 'middle'): SVGTextElement {
  const t = svg('text', { x, y, 'text-anchor': anchor, class: 'axis-text' });
  t.textContent = text;
  return t;
}

function axes(s: SVGSVGElement, xLabel: string, yLabel: string, yTicks: [number, string][], xTicks: [number, string][]): void {
  const fg = themeColor('--vscode-descriptionForeground', '#888');
  s.append(svg('line', { x1: PAD.l, y1: H - PAD.b, x2: W - PAD.r, y2: H - PAD.b, stroke: fg, 'stroke-width': 1 }));
  s.append(svg('line', { x1: PAD.l, y1: PAD.t, x2: PAD.l, y2: H - PAD.b, stroke: fg, 'stroke-width': 1 }));
  for (const [y, t] of yTicks) s.append(axisText(PAD.l - 4, y + 3, t, 'end'));
  for (const [x, t] of xTicks) s.append(axisText(x, H - PAD.b + 12, t));
  s.append(axisText((PAD.l + W - PAD.r) / 2, H - 2, xLabel));
  const yl = axisText(10, (PAD.t + H - PAD.b) / 2, yLabel);
  yl.setAttribute('transform', `rotate(-90 10 ${(PAD.t + H - PAD.b) / 2})`);
  s.append(yl);
}

/** pass@k against k (0…1), points with their values as tooltips. */
export function passAtCurve(rows: PassAtRow[]): SVGSVGElement {
  const s = frame('pass@k curve');
  const pts = rows.filter((r) => r.value !== null);
  const kMax = Math.max(1, ...rows.map((r) => r.k));
  const x = (k: number) => PAD.l + (kMax === 1 ? 0.5 : (k - 1) / (kMax - 1)) * (W - PAD.l - PAD.r);
  const y = (v: number) => H - PAD.b - v * (H - PAD.t - PAD.b);
  axes(s, 'k', 'pass@k', [[y(0), '0'], [y(0.5), '0.5'], [y(1), '1']], rows.filter((r, i) => rows.length <= 10 || i % Math.ceil(rows.length / 8) === 0).map((r) => [x(r.k), String(r.k)]));
  const color = themeColor('--vscode-charts-blue', '#1a85ff');
  if (pts.length > 1) s.append(svg('polyline', { points: pts.map((p) => `${x(p.k)},${y(p.value!)}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 2 }));
  for (const p of pts) {
    const c = svg('circle', { cx: x(p.k), cy: y(p.value!), r: 3.5, fill: color, class: 'pt' });
    const t = svg('title');
    t.textContent = `pass@${p.k} = ${p.value!.toFixed(3)} (${p.nMeasured} measured, ${p.nAllInfra} all-infra)`;
    c.append(t);
    s.append(c);
  }
  return s;
}

/** Bars of the reward histogram. */
export function rewardHistogram(d: RewardDistribution): SVGSVGElement {
  const s = frame('reward distribution');
  const max = Math.max(1, ...d.bins.map((b) => b.count));
  const n = d.bins.length || 1;
  const bw = (W - PAD.l - PAD.r) / n;
  const y = (v: number) => H - PAD.b - (v / max) * (H - PAD.t - PAD.b);
  axes(s, 'reward', 'attempts', [[y(0), '0'], [y(max), String(max)]], d.bins.map((b, i) => [PAD.l + bw * (i + 0.5), d.binary ? String(b.from) : i % 2 === 0 ? fmtReward(b.from) : '']));
  const color = themeColor('--vscode-charts-green', '#388a34');
  d.bins.forEach((b, i) => {
    const r = svg('rect', { x: PAD.l + bw * i + 1, y: y(b.count), width: Math.max(1, bw - 2), height: Math.max(0, H - PAD.b - y(b.count)), fill: color, class: 'bar' });
    const t = svg('title');
    t.textContent = `${d.binary ? `reward ${b.from}` : `${fmtReward(b.from)} – ${fmtReward(b.to)}`}: ${plural(b.count, 'attempt')}`;
    r.append(t);
    s.append(r);
  });
  return s;
}

/** Most points drawn in the scatter. */
export const SCATTER_MAX = 1000;

const AXIS_FMT: Record<string, (v: number) => string> = { costUsd: fmtCost, tokens: fmtInt, durationSec: fmtDuration };

/** Per-task mean reward (y) against the chosen per-attempt quantity (x); a click picks the task. */
export function scatter(points: ScatterPoint[], axis: 'costUsd' | 'tokens' | 'durationSec', label: string, onPick: (taskId: string) => void, max = SCATTER_MAX): SVGSVGElement {
  const s = frame(`mean reward against ${label}`);
  const withValue = points.filter((p) => p[axis] !== null);
  // Past `max` points an even sample of them (every n-th task): an SVG of 10k circles is slow to lay out.
  const step = Math.ceil(withValue.length / max);
  const pts = step > 1 ? withValue.filter((_, i) => i % step === 0) : withValue;
  s.dataset.points = String(pts.length);
  s.dataset.of = String(withValue.length);
  const xs = pts.map((p) => p[axis] as number);
  const lo = Math.min(0, ...xs);
  const hi = Math.max(lo + 1e-9, ...xs);
  const f = AXIS_FMT[axis];
  const x = (v: number) => PAD.l + ((v - lo) / (hi - lo)) * (W - PAD.l - PAD.r);
  const y = (v: number) => H - PAD.b - Math.max(0, Math.min(1, v)) * (H - PAD.t - PAD.b);
  axes(s, label, 'mean reward', [[y(0), '0'], [y(1), '1']], [[x(lo), f(lo)], [x((lo + hi) / 2), f((lo + hi) / 2)], [x(hi), f(hi)]]);
  const color = themeColor('--vscode-charts-blue', '#1a85ff');
  for (const p of pts) {
    const c = svg('circle', { cx: x(p[axis] as number), cy: y(p.reward), r: 3, fill: color, 'fill-opacity': 0.7, class: 'pt' });
    c.dataset.taskId = p.taskId;
    const t = svg('title');
    t.textContent = `${showBidi(p.label)}: mean reward ${p.reward.toFixed(3)}, ${f(p[axis] as number)}`;
    c.append(t);
    c.addEventListener('click', () => onPick(p.taskId));
    s.append(c);
  }
  return s;
}

export type { Dashboard };
