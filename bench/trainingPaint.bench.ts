// Training curves of a long run in the real workbench: a viewer data dir (the project's sample-run generator) whose
// training run has STEPS lines of train/metrics.jsonl (default 100,000), the packaged .vsix in code-server, Debian's
// chromium. Each round opens the run's overview from the command palette and times, from the Enter on the run pick,
// until its uPlot charts are drawn; then asks for a zoomed step range and times its redraw; then appends lines to
// metrics.jsonl (the run still training) and times until the charts show the new last step. The webview's long tasks
// (the Long Tasks API, every task over 50 ms on the page's main thread) and the host's longest event-loop block
// while it read the file (its log) are printed beside each: issue 12 asks that a 100k-line metrics.jsonl "plots without
// freezing the webview or the host".
// Run: node esbuild.mjs && node out/bench/trainingPaint.bench.js (real VS Code tools, installed like npm test).
// Env: STEPS (default 100000), ROUNDS (default 3); BENCH_PROFILE=<dir>: a CPU profile of the extension host from each
// round's Enter until its charts are drawn (bench/hostProfiler.ts; read with out/bench/profileSummary.js).
// Beside the host's blocks: an idle process's longest event-loop delay over the same window (bench/idleControl.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { openView, runCommand, waitForWorkbench } from '../.ci/vscode/workbench';
import { generateViewerData, viewerLarge } from '../scripts/sample-runs/viewerData';
import { HostProfiler } from './hostProfiler';
import { IdleControl } from './idleControl';
import { harborRunsLogs, inWorkbench } from './workbenchSession';

const STEPS = Number(process.env.STEPS) || 100_000;
const ROUNDS = Number(process.env.ROUNDS) || 3;
const LABEL = 'Long training run';

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };

function overviewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
}

/**
 * Collects the page's long tasks (> 50 ms) into window.__longTasks: those that started after `sinceMs` (page time),
 * or after now. Buffered, so the tasks of a page that is just being created are seen too (first: sinceMs 0).
 */
async function watchLongTasks(frame: FrameLocator, sinceMs?: number): Promise<void> {
  await frame.locator('body').evaluate((_, since) => {
    const w = window as unknown as { __longTasks: number[]; __ltObserver?: PerformanceObserver };
    const from = since ?? performance.now();
    w.__longTasks = [];
    w.__ltObserver?.disconnect();
    w.__ltObserver = new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.startTime >= from) w.__longTasks.push(e.duration); });
    w.__ltObserver.observe({ type: 'longtask', buffered: true });
  }, sinceMs);
}

async function longTasks(frame: FrameLocator): Promise<string> {
  const xs = await frame.locator('body').evaluate(() => (window as unknown as { __longTasks?: number[] }).__longTasks ?? []);
  return xs.length ? `${xs.length} long task(s), longest ${Math.round(Math.max(...xs))} ms` : 'no long task (none over 50 ms)';
}

/** The host's newest "read N training steps" figure and the run's longest block, from the extension's log. */
function hostFigures(userDataDir: string): string {
  const text = harborRunsLogs(userDataDir).map((l) => l.text).join('\n');
  const reads = [...text.matchAll(/read (\d+) training steps(?: \((\d+) new\))? in (\d+) ms(?:, longest block (\d+) ms)?/g)];
  const last = reads[reads.length - 1];
  // The run re-read by the workspace's watcher (the Runs tree's step count and problems), which the file's change starts too.
  const rereads = [...text.matchAll(/re-read \S*run\.json in (\d+) ms \([^)]*\), longest event-loop block (\d+) ms/g)];
  const rr = rereads[rereads.length - 1];
  const dash = last ? `host read ${last[2] ? `${last[2]} new steps (of ${last[1]})` : `${last[1]} steps`} in ${last[3]} ms${last[4] ? `, longest block ${last[4]} ms` : ''}` : 'host read not logged';
  return rr ? `${dash}; run re-read ${rr[1]} ms, longest block ${rr[2]} ms` : dash;
}

async function chartsAt(frame: FrameLocator, shows: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const info = await frame.locator('section.training .training-info').textContent({ timeout: timeoutMs }).catch(() => '');
    const section = frame.locator('section.training');
    const drawn = Number(await section.getAttribute('data-charts').catch(() => null) ?? 0);
    const wanted = Number(await section.getAttribute('data-charts-wanted').catch(() => null) ?? -1);
    // Every chart of the draw, not the first few: they are made one per task.
    if (drawn === wanted && drawn >= 3 && info && info.includes(shows)) return;
    if (Date.now() > end) throw new Error(`the charts do not show "${shows}" (info: ${info}, ${drawn} charts)`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function main(): Promise<void> {
  let metrics = '';
  const fill = async (workspace: string): Promise<void> => {
    const spec = viewerLarge(20);
    spec.runs = [{ ...spec.runs[0], id: 'long-run', label: LABEL, steps: STEPS }];
    const g0 = Date.now();
    const r = await generateViewerData(workspace, spec);
    metrics = path.join(r.projectDir, 'runs', 'long-run', 'train', 'metrics.jsonl');
    console.log(`training paint: ${STEPS} steps, metrics.jsonl ${(fs.statSync(metrics).size / 1e6).toFixed(1)} MB, generated in ${((Date.now() - g0) / 1000).toFixed(1)} s`);
  };
  await inWorkbench('training-paint', fill, async ({ repo, page, userDataDir, serverPid }) => {
    await waitForWorkbench(page, 60_000);
    await openView(page, 'Harbor', 'Runs', 60_000);
    await page.locator('.sidebar .monaco-list-row').first().waitFor({ state: 'visible', timeout: 300_000 });
    const firsts: number[] = [];
    const zooms: number[] = [];
    const appends: number[] = [];
    let last = STEPS;
    const profiler = process.env.BENCH_PROFILE ? await HostProfiler.attach(serverPid) : undefined;
    const control = new IdleControl();
    const idle = async () => `; an idle process meanwhile ${await control.max()} ms`;
    for (let i = 1; i <= ROUNDS; i++) {
      await runCommand(page, 'Harbor: Open Run Overview');
      const pick = page.locator('.quick-input-widget input');
      await pick.waitFor({ state: 'visible', timeout: 60_000 });
      await pick.fill(LABEL);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: LABEL }).first().waitFor({ timeout: 60_000 });
      await page.waitForTimeout(300);
      await profiler?.start();
      const t0 = Date.now();
      control.reset();
      await page.keyboard.press('Enter');
      const frame = overviewFrame(page);
      await frame.locator('section.training').waitFor({ state: 'attached', timeout: 120_000 });
      await watchLongTasks(frame, 0);
      await chartsAt(frame, `– ${last});`, 120_000);
      const first = Date.now() - t0;
      firsts.push(first);
      console.log(`  round ${i}: charts of ${last} steps drawn ${first} ms after Enter; webview (page load included): ${await longTasks(frame)}; ${hostFigures(userDataDir)}${await idle()}`);
      if (profiler) console.log(`    extension host profile: ${await profiler.stop(path.join(process.env.BENCH_PROFILE!, `training-${i}-${Date.now()}.cpuprofile`))}`);
      if (i === 1) {
        await frame.locator('section.training').scrollIntoViewIfNeeded();
        fs.mkdirSync(path.join(repo, 'screenshots'), { recursive: true });
        await page.screenshot({ path: path.join(repo, 'screenshots', 'bench-training-100k.png') });
      }

      // A zoomed range at full resolution.
      await watchLongTasks(frame);
      const from = Math.floor(last / 3);
      const to = from + 2999;
      await frame.locator('input.tr-from').fill(String(from));
      await frame.locator('input.tr-to').fill(String(to));
      const z0 = Date.now();
      await frame.locator('.tr-apply').click();
      await chartsAt(frame, `of steps ${from} – ${to}`, 60_000);
      zooms.push(Date.now() - z0);
      console.log(`    zoom to steps ${from}–${to}: redrawn in ${Date.now() - z0} ms; webview: ${await longTasks(frame)}`);
      await frame.locator('.tr-reset').click();
      await chartsAt(frame, `of steps 1 – ${last}`, 60_000);

      // The run goes on: 1,000 more steps appended; the charts follow (the panel re-reads the grown file).
      await watchLongTasks(frame);
      const lines: string[] = [];
      for (let s = last + 1; s <= last + 1000; s++) lines.push(JSON.stringify({ step: s, reward: 0.5, reward_std: 0.1, loss: 0.2, kl: 0.01, entropy: 0.5, ratio: 1, n_unscorable: 0 }));
      const a0 = Date.now();
      control.reset();
      fs.appendFileSync(metrics, lines.join('\n') + '\n');
      last += 1000;
      await chartsAt(frame, `– ${last});`, 120_000);
      appends.push(Date.now() - a0);
      console.log(`    1,000 steps appended: charts at step ${last} ${Date.now() - a0} ms after the write; webview: ${await longTasks(frame)}; ${hostFigures(userDataDir)}${await idle()}`);
      await runCommand(page, 'View: Close All Editors');
      await page.waitForTimeout(500);
    }
    profiler?.close();
    control.stop();
    console.log(`training paint: median of ${ROUNDS} rounds: first charts ${median(firsts)} ms, zoom ${median(zooms)} ms, append followed in ${median(appends)} ms`);
  });
}

main().catch((e) => {
  console.error(`training paint bench failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
