// The run dashboard sections of the Run Overview: outcome bar, pass@k table and curve, reward histogram, usage,
// the cost / tokens / time vs reward scatter, failure causes (a click filters the task table) and failing tests,
// reward provenance warnings, the viewer-data pivot (models or harnesses as columns) with by_model / by_harness and
// support tiers, the task table with the selected task's details (its provenance and reward-details.json), and the
// training curves. Built from the `dashboard` part of the init message; every string is set as text.
import type { OverviewModel } from '../../src/protocol/runOverview';
import type { Dashboard, Pivot, RewardDetails, TaskTableRow, TrainingSeries } from '../../src/protocol/dashboard';
import { pivotGrid } from '../../src/core/dashboard/pivot';
import { type DashContext, copyButtons, plainTable, tableSection } from './context';
import { SCATTER_MAX, outcomeBar, passAtCurve, rewardHistogram, scatter } from './charts';
import { button, codicon, dash, el, fmtCost, fmtDuration, fmtInt, fmtNum, pct } from './dom';
import { TaskTable } from './taskTable';
import { TrainingCharts } from './training';
import { plural } from '../../src/core/format';

export class DashboardView {
  private readonly table: TaskTable;
  private readonly details = el('section', 'dash-section selection');
  private training: TrainingCharts | undefined;
  private lastTraining: TrainingSeries | undefined;
  private model: OverviewModel | undefined;
  private rewardDetails: RewardDetails | undefined;

  constructor(private readonly ctx: DashContext) {
    this.table = new TaskTable(ctx);
    this.table.onSelection((r) => this.showSelection(r));
  }

  render(m: OverviewModel): HTMLElement[] {
    this.model = m;
    const d = m.dashboard;
    const out: HTMLElement[] = [];
    // A training run has no tasks: only its curves (and the header, problems) are shown.
    if (d && (m.counts.total > 0 || d.rowsTotal > 0 || d.rows.length > 0)) {
      out.push(this.summary(m, d));
      if (d.provenance.length) out.push(this.provenance(d));
      if (d.pivot) out.push(this.pivot(d.pivot));
      out.push(this.usage(d), this.scatterSection(d));
      if (d.causes.length || d.failingTests.length) out.push(this.causes(d));
      if (d.rowsTotal || d.rows.length) out.push(this.table.render(d, m.counts.byOutcome.map((o) => o.outcome)), this.details);
    }
    if (m.hasTraining) {
      this.training ??= new TrainingCharts(this.ctx);
      out.push(this.training.root);
      if (this.lastTraining) requestAnimationFrame(() => this.training?.update(this.lastTraining!));
    }
    return out;
  }

  /** Number of task table rows passing the filters. */
  get tableRows(): number { return this.table.shown; }

  /** Task table rows are still to come. */
  get loading(): boolean { return this.table.loading; }

  /** Task table rows in so far. */
  get loadedRows(): number { return this.table.loaded; }

  /** A page of task table rows from the host. */
  addRows(from: number, rows: TaskTableRow[], done: boolean): void {
    this.table.addRows(from, rows, done);
  }

  setTraining(s: TrainingSeries): void {
    this.lastTraining = s;
    this.training?.update(s);
  }

  afterFirstRender(): void {
    this.training?.restoreRange();
  }

  showRewardDetails(rd: RewardDetails): void {
    this.rewardDetails = rd;
    this.shownSelection = undefined;
    this.showSelection(this.table.selectedRow());
  }

  private summary(m: OverviewModel, d: Dashboard): HTMLElement {
    const s = el('section', 'dash-section dash-summary');
    s.id = 'dash-summary';
    const h = el('h2', undefined, 'Outcomes');
    s.append(h, outcomeBar(m.counts.byOutcome, m.counts.total, (o) => {
      this.ctx.state.outcome = o;
      const sel = document.querySelector<HTMLSelectElement>('select.tt-outcome');
      if (sel) sel.value = o;
      this.table.refilter();
      this.table.root.scrollIntoView({ block: 'start' });
    }));
    const grid = el('div', 'dash-grid');
    const pass = el('div', 'dash-card pass-at');
    const unit = d.unit === 'task-cell' ? 'task × model|harness cells' : 'tasks';
    const passTable = {
      headers: ['k', 'pass@k', 'measured', 'all-infra', unit],
      rows: d.passAt.map((p) => [String(p.k), fmtNum(p.value), String(p.nMeasured), String(p.nAllInfra), String(p.nTasks)]),
    };
    const ph = el('h3', undefined, 'pass@k');
    ph.append(copyButtons(this.ctx, 'the pass@k table', () => passTable));
    pass.append(ph, plainTable(passTable), passAtCurve(d.passAt),
      el('p', 'note', `Unbiased estimator over ${unit}. null rewards (verifier never ran) are left out, never counted as 0; ${d.passAt[0]?.nAllInfra ?? 0} with every attempt unmeasured are n_all_infra.`));
    const hist = el('div', 'dash-card rewards');
    const r = d.rewards;
    hist.append(el('h3', undefined, 'Reward distribution'), rewardHistogram(r),
      el('p', 'note', `${plural(r.nMeasured, 'measured attempt')}, mean ${fmtNum(r.mean)}; ${r.nNull} not measured (null reward, not in any bar).`));
    grid.append(pass, hist);
    s.append(grid);
    return s;
  }

  private usage(d: Dashboard): HTMLElement {
    const u = d.usage;
    const row = (name: string, st: Dashboard['usage']['tokens'], f: (v: number | null) => string): string[] =>
      [name, f(st.sum), f(st.median), f(st.p90), String(st.n), String(st.missing)];
    return tableSection(this.ctx, 'usage', 'Tokens, cost and time per attempt', {
      headers: ['', 'sum', 'median', 'p90', 'attempts', 'not reported'],
      rows: [row('tokens (input + output)', u.tokens, fmtInt), row('cost (USD)', u.costUsd, fmtCost), row('duration', u.durationSec, fmtDuration)],
    }, 'Attempts that do not report a quantity are counted apart, not as zero.');
  }

  private scatterSection(d: Dashboard): HTMLElement {
    const s = el('section', 'dash-section scatter');
    s.id = 'scatter';
    const h = el('h2', undefined, 'Reward against cost, tokens or time (per task)');
    s.append(h);
    const avail = d.scatter.axes.filter((a) => a.n > 0);
    for (const a of d.scatter.axes) if (a.note) s.append(el('p', 'note axis-note', a.note));
    if (avail.length === 0) return s;
    const st = this.ctx.state;
    const axis = avail.find((a) => a.key === st.scatterAxis) ?? avail[0];
    const sel = el('select', 'scatter-axis');
    sel.setAttribute('aria-label', 'Scatter x axis');
    for (const a of avail) sel.append(new Option(a.label, a.key));
    sel.value = axis.key;
    const chart = el('div', 'scatter-chart');
    const draw = () => {
      const a = avail.find((x) => x.key === sel.value) ?? avail[0];
      chart.replaceChildren(scatter(d.scatter.points, a.key, a.label, (taskId) => this.table.select(taskId)));
    };
    sel.addEventListener('change', () => { st.scatterAxis = sel.value; this.ctx.save(); draw(); });
    h.append(sel);
    // Below the first screen: its up to SCATTER_MAX points are laid out when it comes into view, not before the paint.
    chart.classList.add('pending');
    const io = new IntersectionObserver((es) => {
      if (!es.some((e) => e.isIntersecting)) return;
      io.disconnect();
      chart.classList.remove('pending');
      draw();
    }, { rootMargin: '200px' });
    io.observe(chart);
    const drawn = Math.min(d.scatter.points.length, SCATTER_MAX);
    const sampled = drawn < d.scatter.total ? ` ${drawn} of the ${plural(d.scatter.total, 'task')} ${drawn === 1 ? 'is' : 'are'} drawn (every n-th).` : '';
    s.append(chart, el('p', 'note', `Each point is a task: its mean reward over measured attempts against its mean per attempt. Click a point to select the task.${sampled}`));
    return s;
  }

  private causes(d: Dashboard): HTMLElement {
    const s = el('section', 'dash-section causes');
    s.id = 'causes';
    const h = el('h2', undefined, 'Failure causes');
    const t = { headers: ['cause', 'source', 'detail', 'attempts', 'tasks', 'example'], rows: d.causes.map((c) => [c.label, c.source, c.detail ?? '', String(c.count), String(c.tasks), c.sample ?? '']) };
    h.append(copyButtons(this.ctx, 'the failure causes', () => t));
    s.append(h);
    const ul = el('ul', 'cause-list');
    for (const c of d.causes) {
      const li = el('li');
      const b = el('button', `cause src-${c.source}`);
      b.type = 'button';
      b.dataset.key = c.key;
      b.title = `Show the ${plural(c.tasks, 'task')} with ${c.label} in the task table`;
      b.append(codicon(c.source === 'verifier' ? 'beaker' : c.source === 'exception' ? 'bug' : 'error'),
        el('span', 'cause-label', c.label), el('span', 'cause-detail', [c.source, c.detail].filter(Boolean).join(' · ')),
        el('span', 'cause-count', `${plural(c.count, 'attempt')} · ${plural(c.tasks, 'task')}`));
      b.addEventListener('click', () => this.table.filterByCause(c.key));
      li.append(b);
      if (c.sample) li.append(el('div', 'cause-sample', c.sample.length > 300 ? `${c.sample.slice(0, 300)}…` : c.sample));
      ul.append(li);
    }
    s.append(ul);
    if (d.failingTests.length) {
      const ft = { headers: ['test', 'failing attempts', 'tasks', 'message'], rows: d.failingTests.map((x) => [x.name, String(x.attempts), String(x.tasks), x.message ?? '']) };
      const h3 = el('h3', undefined, 'Tests failing most often (ctrf.json)');
      h3.append(copyButtons(this.ctx, 'the failing tests', () => ft));
      s.append(h3, plainTable(ft));
    }
    return s;
  }

  private provenance(d: Dashboard): HTMLElement {
    const s = el('section', 'dash-section provenance');
    s.id = 'provenance';
    const warn = d.provenance.filter((p) => p.severity === 'warning').length;
    const h = el('h2', undefined, warn ? `Reward provenance: ${plural(warn, 'warning')}` : 'Reward provenance');
    h.prepend(codicon(warn ? 'warning' : 'info', warn ? 'sev-warning' : 'sev-info'));
    s.append(h);
    const ul = el('ul', 'prov-list');
    for (const p of d.provenance) {
      const li = el('li', `prov sev-${p.severity}`);
      const b = el('button', 'prov-open');
      b.type = 'button';
      b.title = 'Select this task and open the attempt';
      b.append(codicon(p.severity === 'warning' ? 'warning' : 'info'), el('span', 'loc', `${p.taskId} ${p.attemptLabel}`), el('span', 'msg', p.message), el('span', 'file', p.file));
      b.addEventListener('click', () => { this.table.select(p.taskId); this.ctx.post({ type: 'openAttempt', taskId: p.taskId, attemptId: p.attemptId }); });
      li.append(b);
      ul.append(li);
    }
    s.append(ul);
    if (d.provenanceOmitted) s.append(el('p', 'note', `${d.provenanceOmitted} more findings not listed.`));
    return s;
  }

  private pivot(p: Pivot): HTMLElement {
    const s = el('section', 'dash-section pivot');
    s.id = 'pivot';
    const st = this.ctx.state;
    const g = pivotGrid(p, st.pivotColumns);
    const other = st.pivotColumns === 'model' ? 'harness' : 'model';
    const h = el('h2', undefined, `pass@1 / pass@${p.kMax} by ${other} (rows) × ${st.pivotColumns} (columns)`);
    const flip = button(st.pivotColumns === 'model' ? 'Harnesses as columns' : 'Models as columns', 'pivot-flip', 'arrow-swap');
    flip.addEventListener('click', () => { st.pivotColumns = st.pivotColumns === 'model' ? 'harness' : 'model'; this.ctx.save(); s.replaceWith(this.pivot(p)); });
    const t = {
      headers: [other, ...g.columns],
      rows: g.rows.map((r) => [r, ...g.columns.map((c) => { const x = g.at(r, c); return x ? `${fmtNum(x.passAt1)} / ${fmtNum(x.passAtK)}${x.nAllInfra ? ` (${x.nAllInfra} all-infra)` : ''}` : dash; })]),
    };
    h.append(flip, copyButtons(this.ctx, 'the pivot table', () => t));
    s.append(h, plainTable(t));
    const tier = new Map(p.support.map((x) => [x.harness, x]));
    if (p.support.length) {
      const ul = el('ul', 'support');
      for (const x of p.support) {
        const li = el('li', `tier tier-${x.tier.replace(/[^a-z0-9-]/gi, '')}`);
        li.append(el('span', 'tier-badge', x.tier), el('span', 'tier-harness', x.harness));
        if (x.caveats.length) li.append(el('span', 'tier-caveats', x.caveats.join('; ')));
        else if (x.tier !== 'stable') li.append(el('span', 'tier-caveats', 'no caveat given'));
        ul.append(li);
      }
      s.append(el('h3', undefined, 'Support tiers (project.json)'), ul);
    }
    const axisTable = (name: string, rows: Pivot['byModel']) => ({
      headers: [name, 'cells', 'pass@1', `pass@${p.kMax}`, 'measured', 'all-infra', 'mean turns', 'recorded pass@1', `recorded pass@${p.kMax}`],
      rows: rows.map((r) => [r.name + (tier.get(r.name) ? ` [${tier.get(r.name)!.tier}]` : ''), String(r.cells), pct(r.passAt1), pct(r.passAtK), String(r.nMeasured), String(r.nAllInfra), fmtNum(r.meanTurns, 1), pct(r.recordedPassAt1), pct(r.recordedPassAtK)]),
    });
    const bm = axisTable('model', p.byModel);
    const bh = axisTable('harness', p.byHarness);
    const h3m = el('h3', undefined, 'by_model');
    h3m.append(copyButtons(this.ctx, 'by_model', () => bm));
    const h3h = el('h3', undefined, 'by_harness');
    h3h.append(copyButtons(this.ctx, 'by_harness', () => bh));
    s.append(h3m, plainTable(bm), h3h, plainTable(bh), el('p', 'note', 'Cells with every attempt null (verifier never ran) are all-infra: left out of pass@k, never averaged in as 0.'));
    return s;
  }

  private shownSelection: TaskTableRow | null | undefined;

  private showSelection(r: TaskTableRow | null): void {
    // Called after every refilter (each page of rows too): the same row is not drawn (and asked for) again.
    if (r === this.shownSelection && this.details.childElementCount) return;
    this.shownSelection = r;
    const box = this.details;
    box.id = 'selection';
    if (!r) { box.replaceChildren(el('p', 'note', 'Select a task (click, or ↑/↓ in the table) to see its details; Enter or double-click opens its attempt\'s trajectory (else its test output).')); return; }
    const h = el('h2', undefined, r.label);
    const open = button('Open attempt', 'open-attempt', 'go-to-file');
    open.title = 'Its trajectory in the trajectory viewer, else its test output or first evidence file';
    open.addEventListener('click', () => r.openAttemptId && this.ctx.post({ type: 'openAttempt', taskId: r.id, attemptId: r.openAttemptId, target: 'trajectory' }));
    h.append(open);
    const facts = el('dl', 'identity');
    const kv = (k: string, v: string) => { const d = el('div', 'kv'); d.append(el('dt', undefined, k), el('dd', undefined, v)); facts.append(d); };
    kv('rewards', r.rewards.map((x) => (x === null ? 'null' : String(x))).join(', ') || dash);
    kv('passed_at', r.passedAt === null ? dash : String(r.passedAt));
    kv('reward_method', r.rewardMethod ?? dash);
    if (r.exceptions.length) kv('exceptions', r.exceptions.join(', '));
    box.replaceChildren(h, facts);
    const prov = this.model?.dashboard?.provenance.filter((p) => p.taskId === r.id) ?? [];
    for (const p of prov) {
      const w = el('p', `prov-warning sev-${p.severity}`);
      w.append(codicon(p.severity === 'warning' ? 'warning' : 'info'), el('span', undefined, `${p.attemptLabel}: ${p.message}`));
      box.append(w);
    }
    const rd = this.rewardDetails;
    if (rd && rd.taskId === r.id) box.append(this.rewardDetailsView(rd));
    else if (r.openAttemptId) this.ctx.post({ type: 'selectAttempt', taskId: r.id, attemptId: r.openAttemptId });
  }

  private rewardDetailsView(rd: RewardDetails): HTMLElement {
    const s = el('div', 'reward-details');
    s.append(el('h3', undefined, `reward-details.json (${rd.file})`));
    if (rd.error) { s.append(el('p', 'note', rd.error)); return s; }
    const t = el('table', 'data rd-table');
    const hr = el('tr');
    for (const x of ['criterion', 'kind', 'score', 'weight', 'value', 'reasoning / judge output']) hr.append(el('th', undefined, x));
    const head = el('thead');
    head.append(hr);
    const body = el('tbody');
    for (const n of rd.nodes) {
      const tr = el('tr', `rd-depth-${Math.min(n.depth, 6)}`);
      const name = el('td', 'rd-name', n.name);
      name.style.paddingLeft = `${4 + n.depth * 16}px`;
      const text = el('td', 'rd-text');
      if (n.text) { const pre = el('pre', undefined, n.text); text.append(pre); }
      tr.append(name, el('td', undefined, n.kind ?? ''), el('td', 'num', fmtNum(n.score)), el('td', 'num', n.weight === null ? '' : String(n.weight)), el('td', undefined, n.value ?? ''), text);
      body.append(tr);
    }
    t.append(head, body);
    s.append(t);
    return s;
  }
}
