// The run dashboard inside the Run Overview, in the real workbench on a copy of examples/: the Harbor job's task table
// has every task, the trial whose agent wrote its own reward.json is flagged in the Runs tree, in Problems and on the
// page; with the driver: a failure cause filters the task table, a table goes to the clipboard through the host as
// Markdown, selecting the rewardkit task brings its reward-details.json, and a training run's uPlot curves are drawn
// from metrics.jsonl and follow a step appended to it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { hasDriver, until, webview } from './helpers';
import { api, child, type HarborRunsApi } from './treeHelpers';
import type { Run } from '../../src/core/model';
import { dashboardModel } from '../../src/core/dashboard';
import type { WebviewMessage } from '../../src/protocol/runOverview';

const VIEW_TYPE = 'harborRuns.runOverview';
const seen: { runId: string; message: WebviewMessage }[] = [];

function messages(runId: string): WebviewMessage[] {
  return seen.filter((e) => e.runId === runId).map((e) => e.message);
}

async function openAndRender(run: Run): Promise<Extract<WebviewMessage, { type: 'rendered' }>> {
  const before = messages(run.id).length;
  await vscode.commands.executeCommand('harborRuns.openRunOverview', run.id);
  return until(() => {
    const ms = messages(run.id).slice(before);
    const err = ms.find((m) => m.type === 'error');
    if (err) throw new Error(`the webview reported: ${JSON.stringify(err)}`);
    return ms.find((m): m is Extract<WebviewMessage, { type: 'rendered' }> => m.type === 'rendered');
  }, { timeout: 45_000, message: `the overview of ${run.label} renders` });
}

async function text(name: string, css: string): Promise<string> {
  const r = await webview(name, 'text', css);
  assert.ok(r?.ok, r?.error);
  return r.text ?? '';
}

suite('run dashboard', () => {
  let a: HarborRunsApi;
  let job: Run;
  let recorder: { dispose(): void } | undefined;
  suiteSetup(async () => {
    a = await api();
    recorder = a.onDidReceivePanelMessage((m) => {
      if (m.viewType === VIEW_TYPE) seen.push({ runId: m.key, message: m.message as WebviewMessage });
    });
    // The example job with the agent-written reward.json and the rewardkit trial (examples/harbor/jobs/).
    const r = a.store.runs().find((x) => x.kind === 'harbor-job' && x.tasks.some((t) => t.attempts.some((y) => y.provenance?.length)));
    assert.ok(r, 'examples/ has a Harbor job with reward provenance findings');
    job = r;
  });
  suiteTeardown(async () => {
    recorder?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the Harbor job: every task in the table; the agent-written reward.json flagged in the tree, Problems and the page', async () => {
    const model = dashboardModel(job);
    const rendered = await openAndRender(job);
    assert.equal(rendered.rows, job.tasks.length);
    assert.equal(rendered.tableRows, model.rows.length, 'the task table shows every task before any filter');
    assert.equal(messages(job.id).some((m) => m.type === 'cspViolation'), false, 'no CSP violation reported by the page');

    const task = job.tasks.find((t) => t.attempts.some((x) => x.provenance?.some((p) => p.code === 'reward-files-disagree')));
    assert.ok(task, 'the job has the trial whose reward.json and reward.txt disagree');
    const attempt = task.attempts.find((x) => x.provenance?.some((p) => p.code === 'reward-files-disagree'))!;
    const finding = attempt.provenance!.find((p) => p.code === 'reward-files-disagree')!;
    assert.match(finding.message, /reward\.json says 1 and reward\.txt says 0/);
    assert.ok(model.provenance.some((p) => p.attemptId === attempt.id && p.code === 'reward-files-disagree'), 'the dashboard lists it');

    const runNode = a.treeProvider.nodeForRun(job);
    const taskNode = await child(a, runNode, task.label || task.id);
    const attemptNode = (await a.getChildren(taskNode)).find((n) => n.kind === 'attempt' && n.attempt.id === attempt.id);
    assert.ok(attemptNode, 'the attempt is in the tree');
    const item = a.getTreeItem(attemptNode);
    assert.match(String(item.description), /⚠ reward provenance/);
    const flag = new URLSearchParams(item.resourceUri?.query ?? '');
    assert.equal(flag.get('b'), 'R', 'the attempt carries the provenance badge');
    assert.match(flag.get('r') ?? '', /^reward provenance: reward\.json says 1/);

    const diags = vscode.languages.getDiagnostics(vscode.Uri.file(finding.file));
    assert.ok(diags.some((d) => d.code === 'reward-files-disagree' || /reward\.json says 1/.test(d.message)), `Problems has the finding on ${finding.file}`);

    if (!hasDriver()) return;
    assert.match(await text('dashboard-provenance', '#provenance'), /reward\.json says 1 and reward\.txt says 0/);
    await webview('dashboard-harbor', 'shot', '#dash-summary');
  });

  test('a failure cause filters the task table; the pass@k table is copied as Markdown through the host', async function () {
    if (!hasDriver()) { this.skip(); return; }
    const model = dashboardModel(job);
    const cause = model.causes.find((c) => c.source === 'exception') ?? model.causes[0];
    assert.ok(cause, 'the job has a failure cause');
    const expected = model.rows.filter((r) => r.causes.includes(cause.key)).length;
    assert.ok(expected > 0 && expected < model.rows.length, 'the cause narrows the table');
    const click = await webview('dashboard-cause', 'click', `button.cause[data-key="${cause.key.replace(/["\\]/g, '\\$&')}"]`);
    assert.ok(click?.ok, click?.error);
    await until(async () => (await text('dashboard-shown', 'section.task-table .tt-shown')) === `${expected} of ${model.rows.length} tasks`,
      { timeout: 10_000, message: `the cause ${cause.key} leaves ${expected} task(s)` });
    await webview('dashboard-filtered', 'shot', 'section.task-table');
    const clear = await webview('dashboard-clear', 'click', 'section.task-table button.tt-clear');
    assert.ok(clear?.ok, clear?.error);
    await until(async () => (await text('dashboard-shown-all', 'section.task-table .tt-shown')) === `${model.rows.length} of ${model.rows.length} tasks`,
      { timeout: 10_000, message: 'clearing the filters shows every task' });

    await vscode.env.clipboard.writeText('');
    const before = messages(job.id).length;
    const copy = await webview('dashboard-copy', 'click', '.pass-at button.copy-md');
    assert.ok(copy?.ok, copy?.error);
    const msg = await until(() => messages(job.id).slice(before).find((m) => m.type === 'copy'), { timeout: 10_000, message: 'the host gets the copy' });
    assert.equal(msg.type === 'copy' && msg.format, 'markdown');
    const clip = await until(async () => (await vscode.env.clipboard.readText()) || undefined, { timeout: 10_000, message: 'the clipboard is written' });
    const lines = clip.trimEnd().split('\n');
    assert.equal(lines.length, model.passAt.length + 2, 'header, rule and one line per k');
    assert.match(lines[0], /^\| k \|/);
    assert.match(lines[2], new RegExp(`^\\| 1 \\| ${model.passAt[0].value!.toFixed(3)} \\|`));
  });

  test('selecting the rewardkit task shows its reward-details.json', async function () {
    if (!hasDriver()) { this.skip(); return; }
    const task = job.tasks.find((t) => t.attempts.some((x) => x.provenance?.some((p) => p.code === 'reward-details')));
    assert.ok(task, 'the job has a rewardkit trial');
    const before = messages(job.id).length;
    const click = await webview('dashboard-select', 'click', `section.task-table .tt-row[data-id="${task.id.replace(/["\\]/g, '\\$&')}"]`);
    assert.ok(click?.ok, click?.error);
    const sel = await until(() => messages(job.id).slice(before).find((m) => m.type === 'selectAttempt'), { timeout: 10_000, message: 'the host gets selectAttempt' });
    assert.equal(sel.type === 'selectAttempt' && sel.taskId, task.id);
    await until(async () => /answers the question asked/.test(await text('dashboard-details', '#selection')),
      { timeout: 10_000, message: 'the selection shows the judge output of reward-details.json' });
    await webview('dashboard-reward-details', 'shot', '#selection');

    // "Open attempt" opens its trajectory in the trajectory viewer.
    const attempt = task.attempts[0];
    const trajectory = attempt.evidence.find((e) => e.kind === 'trajectory' && e.present)?.path;
    assert.ok(trajectory, 'the rewardkit trial has agent/trajectory.json');
    const open = await webview('dashboard-open-trajectory', 'click', '#selection button.open-attempt');
    assert.ok(open?.ok, open?.error);
    await until(() => a.openPanels('harborRuns.trajectory').some((p) => p.key === trajectory),
      { timeout: 20_000, message: `the trajectory viewer opens ${trajectory}` });
    assert.ok(messages(job.id).some((m) => m.type === 'openAttempt' && m.target === 'trajectory' && m.taskId === task.id));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a training run: uPlot curves of metrics.jsonl, redrawn when a step is appended', async function () {
    const training = a.store.runs().find((x) => x.kind === 'viewer-data' && x.training && x.label.includes('GRPO 2B'));
    assert.ok(training?.training, 'examples/ has a finished training run');
    await openAndRender(training);
    if (!hasDriver()) { this.skip(); return; }
    const steps = training.training.steps;
    await until(async () => (await text('training-info', 'section.training .training-info')).startsWith(`${steps} steps`),
      { timeout: 15_000, message: `the curves show ${steps} steps` });
    const chart = await webview('training-uplot', 'text', 'section.training .uplot .u-legend');
    assert.ok(chart?.ok, `uPlot drew a chart: ${chart?.error}`);
    await webview('training-curves', 'shot', 'section.training');

    const file = training.files.find((f) => f.key === 'metrics')!.path!;
    fs.appendFileSync(file, `${JSON.stringify({ step: steps + 1, reward: 0.72, reward_std: 0.1, loss: 0.36, ratio: 1, kl: 0.012, entropy: 0.45, n_rollouts: 8, n_unscorable: 0, wall_s: 40 })}\n`);
    await until(async () => (await text('training-info-live', 'section.training .training-info')).startsWith(`${steps + 1} steps`),
      { timeout: 20_000, message: 'the appended step is drawn' });
  });
});
