// Run dashboard at scale: a synthetic Harbor-like run of 10k tasks × 8 attempts (tokens, cost, duration,
// exceptions, ctrf failures, provenance findings) through the dashboard view model, the whole overview model, the
// init message's JSON and its validation (what the host does before posting, and the webview on receipt); and a
// 100k-line metrics.jsonl read into columns and cut to the points a chart gets. Each figure is a median, printed with
// its ratio to a floor measured in the same run: one pass over the same attempts (summing rewards) for the model,
// reading the file and JSON.parse of every line for the metrics.
// Run: npm run bench (env TASKS, ATTEMPTS, ROUNDS, LINES to change the size)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Attempt, Evidence, Outcome, Run, Task } from '../src/core/model';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dashboardModel, dashboardRows } from '../src/core/dashboard';
import { readTrainingTable, trainingSeries } from '../src/core/dashboard/training';
import { NodeFs } from '../src/core/fs/nodeFs';
import { clipForWebview, overviewModel } from '../src/views/runOverviewModel';
import { parseHostMessage } from '../src/protocol/runOverview';

const TASKS = Number(process.env.TASKS) || 10_000;
const ATTEMPTS = Number(process.env.ATTEMPTS) || 8;
const ROUNDS = Number(process.env.ROUNDS) || 5;
const LINES = Number(process.env.LINES) || 100_000;

const OUTS: Outcome[] = ['passed', 'failed', 'failed', 'agent-error', 'truncated', 'infra-error', 'passed', 'failed'];
const EXC: Record<string, string> = { 'agent-error': 'NonZeroAgentExitCodeError', truncated: 'AgentTimeoutError', 'infra-error': 'EnvironmentStartTimeoutError' };

function syntheticRun(): Run {
  const tasks: Task[] = [];
  for (let t = 0; t < TASKS; t++) {
    const attempts: Attempt[] = [];
    for (let a = 0; a < ATTEMPTS; a++) {
      const outcome = OUTS[(t * 7 + a * 3) % OUTS.length];
      const dir = `/jobs/j/task-${t}__${a}`;
      const evidence: Evidence[] = outcome === 'failed'
        ? [{ kind: 'ctrf', label: 'ctrf.json', path: `${dir}/verifier/ctrf.json`, isDir: false, present: true, failedTests: [{ name: `test_${t % 50}`, message: 'assert 1 == 2' }] }]
        : [];
      attempts.push({
        id: `task-${t}#${a}`, index: a, label: `#${a + 1}`, outcome, dir, evidence, missing: [],
        reward: outcome === 'passed' ? 1 : outcome === 'infra-error' ? null : 0,
        tokens: { input: 10_000 + ((t * 13 + a) % 5000), output: 800 + (a * 31) % 400 }, costUsd: 0.01 + ((t + a) % 100) / 1000,
        durationSec: 30 + ((t + a) % 300),
        ...(EXC[outcome] ? { exception: { type: EXC[outcome], message: `${EXC[outcome]} in task ${t}` }, details: { exceptionCategory: 'agent-timeout' } } : {}),
        ...(t % 997 === 0 && a === 0 ? { provenance: [{ code: 'reward-files-disagree' as const, severity: 'warning' as const, message: 'disagree', file: `${dir}/verifier/reward.json` }] } : {}),
      });
    }
    tasks.push({ id: `task-${String(t).padStart(5, '0')}`, index: t, label: `task-${t}`, attempts });
  }
  return { id: 'harbor-job:/jobs/j', kind: 'harbor-job', root: '/jobs/j', anchor: '/jobs/j', label: 'bench job', identity: {}, state: 'complete', files: [], problems: [], unvalidated: [], skipped: [], tasks };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn: () => unknown, rounds = ROUNDS): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}

async function main(): Promise<void> {
  const run = syntheticRun();
  const floor = await time(() => { let s = 0; for (const t of run.tasks) for (const a of t.attempts) s += a.reward ?? 0; return s; });
  const dashMs = await time(() => dashboardModel(run));
  const overviewMs = await time(() => overviewModel(run));
  const model = overviewModel(run);
  const msg = { type: 'init', model };
  const jsonMs = await time(() => JSON.stringify(msg));
  const bytes = JSON.stringify(msg).length;
  const parsed = JSON.parse(JSON.stringify(msg)) as unknown;
  const validateMs = await time(() => { if (!parseHostMessage(parsed).ok) throw new Error('the init message does not validate'); });
  // What the panel sends now (src/vscode/panels/runOverviewPanel.ts): a first screen with the table's first 150 rows
  // and no grid, then pages of 2500 rows.
  const firstOpts = { firstRows: 150, deferGridAbove: 200, generation: 1 };
  const firstMs = await time(() => overviewModel(run, firstOpts));
  const firstMsg = { type: 'init', model: overviewModel(run, firstOpts) };
  const firstBytes = JSON.stringify(firstMsg).length;
  const firstParsed = JSON.parse(JSON.stringify(firstMsg)) as unknown;
  const firstValidateMs = await time(() => { if (!parseHostMessage(firstParsed).ok) throw new Error('the first screen does not validate'); });
  const pageMs = await time(() => clipForWebview(run, dashboardRows(run, 300, 2800)));
  const page = JSON.parse(JSON.stringify({ type: 'rows', generation: 1, from: 300, rows: clipForWebview(run, dashboardRows(run, 300, 2800)), done: false })) as unknown;
  const pageBytes = JSON.stringify(page).length;
  const pageValidateMs = await time(() => { if (!parseHostMessage(page).ok) throw new Error('a page of rows does not validate'); });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dash-bench-'));
  try {
    const file = path.join(dir, 'metrics.jsonl');
    const lines: string[] = [];
    for (let i = 1; i <= LINES; i++) {
      lines.push(JSON.stringify({ step: i, reward: 0.5 + 0.4 * Math.sin(i / 500), reward_std: 0.1 + (i % 7) / 100, loss: 1 / Math.sqrt(i), ratio: 1 - (i % 3) / 1e4, kl: 0.01 + (i % 11) / 1000, entropy: 0.5 - i / (LINES * 4), n_rollouts: 8, n_unscorable: i % 5, wall_s: 47.6 }));
    }
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const mb = fs.statSync(file).size / 1e6;
    const nfs = new NodeFs();
    const mFloor = await time(() => { for (const l of fs.readFileSync(file, 'utf8').split('\n')) if (l) JSON.parse(l); }, 3);
    const readMs = await time(() => readTrainingTable(nfs, file), 3);
    // The longest the event loop waited while the file was read (what "the host does not freeze" means).
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    await readTrainingTable(nfs, file);
    lag.disable();
    const longestBlockMs = lag.max / 1e6;
    const table = await readTrainingTable(nfs, file);
    const seriesMs = await time(() => trainingSeries(table));
    const zoomMs = await time(() => trainingSeries(table, { from: 40_000, to: 42_000 }));
    const series = trainingSeries(table);
    const tmsg = JSON.parse(JSON.stringify({ type: 'training', series })) as unknown;
    const tValidateMs = await time(() => { if (!parseHostMessage(tmsg).ok) throw new Error('the training message does not validate'); });

    const f = (ms: number, fl: number) => `${ms.toFixed(1).padStart(8)} ms  ${(ms / fl).toFixed(1).padStart(6)}× floor`;
    console.log(`dashboard bench: ${TASKS} tasks × ${ATTEMPTS} attempts (${TASKS * ATTEMPTS} attempts), median of ${ROUNDS} rounds`);
    console.log(`  floor (one pass summing rewards)            ${floor.toFixed(2).padStart(8)} ms`);
    console.log(`  dashboard view model                        ${f(dashMs, floor)}`);
    console.log(`  whole overview model (grid + dashboard)     ${f(overviewMs, floor)}`);
    console.log(`  init message JSON (${(bytes / 1e6).toFixed(1)} MB)                  ${f(jsonMs, floor)}`);
    console.log(`  init message validation (zod)               ${f(validateMs, floor)}`);
    // The overview model includes the dashboard's; the webview validates the message again on receipt.
    const host = overviewMs + jsonMs;
    console.log(`  host (model + JSON) + webview validation: ${(host + validateMs).toFixed(0)} ms (everything in one message, as before)`);
    console.log(`  first screen model (150 rows, no grid)      ${f(firstMs, floor)}   ${(firstBytes / 1e3).toFixed(0)} kB, validated in ${firstValidateMs.toFixed(1)} ms`);
    console.log(`  a page of 2500 rows                         ${f(pageMs, floor)}   ${(pageBytes / 1e6).toFixed(2)} MB, validated in ${pageValidateMs.toFixed(1)} ms`);
    console.log(`metrics.jsonl: ${LINES} lines, ${mb.toFixed(1)} MB`);
    console.log(`  floor (readFileSync + JSON.parse per line)  ${mFloor.toFixed(1).padStart(8)} ms`);
    console.log(`  streamed into columns                       ${f(readMs, mFloor)}   longest event-loop block ${longestBlockMs.toFixed(0)} ms`);
    console.log(`  chart series, all steps (${series.steps.length} points, stride ${series.stride}) ${f(seriesMs, mFloor)}`);
    console.log(`  chart series, zoomed to 2000 steps          ${f(zoomMs, mFloor)}`);
    console.log(`  training message validation (zod)           ${f(tValidateMs, mFloor)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
