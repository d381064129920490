// The run dashboard while its run changes, in the real workbench: a NeMo Gym run of 400 tasks × 2 attempts (read
// from its rollouts, no summary) generated into the workspace by the project's generator. The task table's CSV copy,
// clicked while the table's rows are still coming in pages, copies every task the filter keeps (the status bar says
// how many rows). Then a filter is set, the table scrolled and a task selected; rewards are rewritten on disk, the
// store re-reads the run and the overview is drawn again: the counts are the new ones, and the filter, the scroll
// position and the selection are what they were. Screenshots: screenshots/ui/dashboard-live-<step>.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import { dashboardModel } from '../../../src/core/dashboard';
import { generateNemoRun, nemoLarge } from '../../../scripts/sample-runs/nemoGym';
import { closeEditors, collapseTree, openOverviewFromPalette, type Scenario, type UiContext } from '../driver';

const TASKS = 400;
const TASKSET = 'tb-live';

/** The dashboard's model of the run as it is on disk now: how many tasks the outcome filter keeps, the outcome counts. */
async function onDisk(dir: string, outcome: string): Promise<{ kept: number; tasks: number; count: number }> {
  const run = (await loadRuns(new NodeFs(), [dir])).find((r) => r.tasks.length === TASKS);
  if (!run) throw new Error(`the generated run of ${TASKS} tasks is not read from ${dir}`);
  const d = dashboardModel(run);
  const count = run.tasks.reduce((n, t) => n + t.attempts.filter((a) => a.outcome === outcome).length, 0);
  return { kept: d.rows.filter((r) => r.outcomes.includes(outcome as never)).length, tasks: d.rows.length, count };
}

async function attr(frame: FrameLocator, css: string, name: string): Promise<string> {
  return (await frame.locator(css).first().getAttribute(name)) ?? '';
}

async function statusBarSays(ctx: UiContext, re: RegExp): Promise<string> {
  return ctx.until(async () => {
    const texts = await ctx.page.locator('.statusbar-item').allTextContents();
    return texts.find((t) => re.test(t)) ?? '';
  }, `the status bar says ${re}`, 60_000);
}

export const scenario: Scenario = {
  name: 'dashboard-live',
  async run(ctx) {
    const { page } = ctx;
    const dir = path.join(ctx.workspace, 'live-run');
    const g = await generateNemoRun(dir, { ...nemoLarge(TASKS, 2, 0), taskset: TASKSET });
    try {
      await ctx.openHarborView();
      await ctx.runCommand('Harbor: Refresh');
      await ctx.treeRow(TASKSET).waitFor({ state: 'visible', timeout: 120_000 });
      const before = await onDisk(dir, 'failed');

      // 1. Copy while the rows are still coming: the whole table (every task), not the first page.
      await openOverviewFromPalette(ctx, TASKSET);
      const frame = await ctx.webviewFrame('section.task-table');
      const wasLoading = await attr(frame, 'section.task-table', 'data-loading');
      await frame.locator('section.task-table h2 button.copy-csv').click();
      ctx.log(`CSV copy clicked while the table was ${wasLoading === 'true' ? 'still loading its pages' : 'already whole'}`);
      await statusBarSays(ctx, new RegExp(`Copied the task table \\(filtered rows\\), ${before.tasks} rows, as CSV`));
      await ctx.shot('1-copied-whole-table');

      // 2. Filter by outcome, scroll the table, select a task.
      await ctx.until(async () => (await attr(frame, 'section.task-table', 'data-loading')) === 'false', 'every row is in');
      await frame.locator('select.tt-outcome').selectOption('failed');
      await ctx.until(async () => Number(await attr(frame, 'section.task-table', 'data-shown')) === before.kept,
        `the outcome filter keeps the ${before.kept} tasks with a failed attempt`);
      const body = frame.locator('.tt-body');
      const scrolled = await body.evaluate((b) => { b.scrollTop = 1200; return b.scrollTop; });
      if (scrolled < 1000) throw new Error(`the table did not scroll (scrollTop ${scrolled})`);
      await page.waitForTimeout(500);
      // The row is clicked by its id: the virtualised rows are redrawn as the table scrolls.
      const selected = (await frame.locator('.tt-body .tt-row[data-id]').nth(6).getAttribute('data-id')) ?? '';
      await frame.locator(`.tt-body .tt-row[data-id="${selected}"]`).click();
      await ctx.until(async () => (await attr(frame, '.tt-row.selected', 'data-id')) === selected, `${selected} is selected`);
      const scrollBefore = await body.evaluate((b) => b.scrollTop);
      await ctx.shot('2-filtered-scrolled-selected');

      // 3. The run changes on disk: the failed attempts of every task but the selected one whose number ends in 3 now
      // pass. The store re-reads the run and the page is drawn again with the new counts.
      const rollouts = g.rolloutsPath;
      const lines = fs.readFileSync(rollouts, 'utf8').split('\n');
      const changed = lines.map((l) => (/"task-\d{4}3"/.test(l) && !l.includes(`"${selected}"`) ? l.replace(/"reward":0(?=[,}])/g, '"reward":1') : l));
      if (changed.join('\n') === lines.join('\n')) throw new Error('no reward was rewritten');
      fs.writeFileSync(`${rollouts}.tmp`, changed.join('\n'));
      fs.renameSync(`${rollouts}.tmp`, rollouts);
      const after = await onDisk(dir, 'failed');
      if (after.kept >= before.kept || after.count >= before.count) throw new Error(`the change does not change the counts (${before.kept} → ${after.kept})`);
      await ctx.until(async () => (await frame.locator('.outcome-legend').textContent())?.includes(`failed ${after.count}`) ?? false,
        `the outcome bar counts ${after.count} failed attempts (was ${before.count})`, 60_000);
      await ctx.until(async () => (await attr(frame, 'section.task-table', 'data-loading')) === 'false', 'every row of the re-read run is in', 60_000);

      // 4. Filter, scroll and selection are kept; the filter's count is the new one.
      const shown = Number(await attr(frame, 'section.task-table', 'data-shown'));
      if (shown !== after.kept) throw new Error(`the table shows ${shown} tasks, the filter keeps ${after.kept} of the re-read run`);
      const filter = await frame.locator('select.tt-outcome').inputValue();
      if (filter !== 'failed') throw new Error(`the outcome filter is "${filter}" after the update`);
      await ctx.until(async () => (await attr(frame, '.tt-row.selected', 'data-id')) === selected, `${selected} is still selected and in view`);
      const scrollAfter = await body.evaluate((b) => b.scrollTop);
      if (Math.abs(scrollAfter - scrollBefore) > 1) throw new Error(`the table's scroll moved from ${scrollBefore} to ${scrollAfter}`);
      const label = (await frame.locator('#selection h2').textContent()) ?? '';
      if (!label.includes(selected)) throw new Error(`the selection's details show "${label}", not ${selected}`);
      await ctx.shot('3-after-live-update');
    } finally {
      await closeEditors(ctx);
      fs.rmSync(dir, { recursive: true, force: true });
      await ctx.runCommand('Harbor: Refresh').catch(() => undefined);
      await collapseTree(ctx);
    }
  },
};
