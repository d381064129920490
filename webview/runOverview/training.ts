// Training curves (viewer data metrics.jsonl) drawn with uPlot: reward with its ± reward_std band, then loss, kl,
// entropy, ratio and n_unscorable (and any other numeric key) against step, one small chart each with a shared
// cursor (hover shows every value at that step in the legends), drag to zoom (the host resends that range at full
// resolution when it was thinned out), double-click to zoom out, and a step range to type. Colours come from the
// theme's --vscode-* tokens and the charts are redrawn when the theme changes.
import uPlot from 'uplot';
import type { TrainingSeries } from '../../src/protocol/dashboard';
import type { DashContext } from './context';
import { button, el, themeColor } from './dom';

const COLORS: [string, string][] = [
  ['--vscode-charts-blue', '#1a85ff'], ['--vscode-charts-orange', '#d18616'], ['--vscode-charts-purple', '#652d90'],
  ['--vscode-charts-green', '#388a34'], ['--vscode-charts-red', '#c72e0f'], ['--vscode-charts-yellow', '#bf8803'],
];

export class TrainingCharts {
  readonly root = el('section', 'dash-section training');
  private plots: uPlot[] = [];
  private series: TrainingSeries | undefined;
  private readonly charts = el('div', 'training-charts');
  private readonly info = el('p', 'note training-info');
  private readonly from = el('input', 'tr-from');
  private readonly to = el('input', 'tr-to');
  private requestTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ctx: DashContext) {
    const h = el('h2', undefined, 'Training curves');
    const bar = el('div', 'tr-toolbar');
    for (const [i, label] of [[this.from, 'from step'], [this.to, 'to step']] as const) {
      i.type = 'number';
      i.placeholder = label;
      i.setAttribute('aria-label', label);
    }
    const apply = button('Show range', 'tr-apply', 'search');
    apply.addEventListener('click', () => this.requestRange(this.numberOf(this.from), this.numberOf(this.to)));
    const reset = button('All steps', 'tr-reset', 'zoom-out');
    reset.addEventListener('click', () => { this.from.value = ''; this.to.value = ''; this.requestRange(null, null); });
    bar.append(el('span', 'lbl', 'steps'), this.from, el('span', 'lbl', 'to'), this.to, apply, reset);
    this.root.append(h, bar, this.info, this.charts, el('p', 'note', 'Drag across a chart to zoom into steps; double-click to zoom out. reward_std 0 at a step means every generation scored the same: zero advantage, nothing learned.'));
    this.charts.append(el('p', 'empty', 'Loading metrics…'));
    new MutationObserver(() => { if (this.series) this.draw(this.series); }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  private numberOf(i: HTMLInputElement): number | null {
    const v = i.value.trim() === '' ? null : Number(i.value);
    return v !== null && Number.isFinite(v) ? v : null;
  }

  private requestRange(from: number | null, to: number | null): void {
    this.ctx.state.trainingFrom = from;
    this.ctx.state.trainingTo = to;
    this.ctx.save();
    this.ctx.post({ type: 'trainingRange', from, to });
  }

  /** The state's range, asked for again after a reload. */
  restoreRange(): void {
    const { trainingFrom, trainingTo } = this.ctx.state;
    if (trainingFrom !== null || trainingTo !== null) this.ctx.post({ type: 'trainingRange', from: trainingFrom, to: trainingTo });
  }

  update(s: TrainingSeries): void {
    this.series = s;
    this.draw(s);
  }

  /** Counts the draws: a chart still to be made for an earlier one is not. */
  private drawn = 0;

  private draw(s: TrainingSeries): void {
    const drawing = ++this.drawn;
    for (const p of this.plots) p.destroy();
    this.plots = [];
    this.charts.replaceChildren();
    this.from.value = s.from === null ? '' : String(s.from);
    this.to.value = s.to === null ? '' : String(s.to);
    this.info.textContent = s.totalSteps === 0
      ? 'metrics.jsonl has no step yet.'
      : `${s.totalSteps} steps (${s.firstStep} – ${s.lastStep}); showing ${s.steps.length} points of steps ${s.from} – ${s.to}${s.stride > 1 ? `, every ${s.stride}th step (zoom in for every step)` : ''}${s.live ? ' · still being written' : ''}${s.badLines ? ` · ${s.badLines} unreadable lines left out` : ''}`;
    this.root.dataset.points = String(s.steps.length);
    if (s.totalSteps === 0) return;
    const fg = themeColor('--vscode-foreground', '#ccc');
    const grid = themeColor('--vscode-editorWidget-border', '#8884');
    const width = Math.max(260, Math.min(560, (this.root.clientWidth || 1100) / 2 - 24));
    const col = (k: string) => s.series.find((x) => x.key === k)?.values;
    const reward = col('reward');
    const std = col('reward_std');
    const keys = s.series.map((x) => x.key).filter((k) => k !== 'reward_std' || !reward);
    const sync = uPlot.sync('harbor-training');
    this.root.dataset.chartsWanted = String(keys.length);
    this.root.dataset.charts = '0';
    // One chart per task: thousands of points in six charts made at once held the page for over a second (seen at
    // 100,000 steps on a loaded machine), one at a time it stays responsive between them.
    const make = (i: number): void => {
      if (drawing !== this.drawn || i >= keys.length) return;
      const key = keys[i];
      const [tok, fb] = COLORS[i % COLORS.length];
      const color = themeColor(tok, fb);
      const values = col(key)!;
      const data: (number | null)[][] = [s.steps, values];
      const series: uPlot.Series[] = [{ label: 'step' }, { label: key, stroke: color, width: 1.5, spanGaps: false, points: { show: s.steps.length < 60 } }];
      const bands: uPlot.Band[] = [];
      if (key === 'reward' && std) {
        data.push(values.map((v, j) => (v === null || std[j] === null ? null : v + (std[j] as number))));
        data.push(values.map((v, j) => (v === null || std[j] === null ? null : v - (std[j] as number))));
        series.push({ label: '+std', stroke: 'transparent', width: 0, points: { show: false } });
        series.push({ label: '−std', stroke: 'transparent', width: 0, points: { show: false } });
        bands.push({ series: [2, 3], fill: `${color}33` });
      }
      const box = el('div', `tr-chart tr-${key.replace(/[^a-z0-9_-]/gi, '')}`);
      box.setAttribute('aria-label', `${key} against step`);
      this.charts.append(box);
      const opts: uPlot.Options = {
        title: key === 'reward' && std ? 'reward ± reward_std' : key,
        width, height: 170, series, bands,
        scales: { x: { time: false } },
        axes: [
          { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
          { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 50 },
        ],
        cursor: { sync: { key: sync.key }, drag: { x: true, y: false } },
        legend: { live: true },
        hooks: { setSelect: [(u) => this.zoomed(u)] },
      };
      this.plots.push(new uPlot(opts, data as uPlot.AlignedData, box));
      this.root.dataset.charts = String(this.plots.length);
      setTimeout(() => make(i + 1), 0);
    };
    make(0);
  }

  /** After a drag-zoom: when the range was thinned out, ask the host for it at full resolution. */
  private zoomed(u: uPlot): void {
    if (u.select.width < 2 || !this.series) return;
    const from = u.posToVal(u.select.left, 'x');
    const to = u.posToVal(u.select.left + u.select.width, 'x');
    if (this.series.stride === 1) return;
    if (this.requestTimer) clearTimeout(this.requestTimer);
    this.requestTimer = setTimeout(() => this.requestRange(Math.floor(from), Math.ceil(to)), 50);
  }
}
