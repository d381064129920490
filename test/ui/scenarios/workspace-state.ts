// What the workspace remembers across a window reload (last scenario: it reloads the page): the Runs tree's filter
// and an open Run Overview. Filter by text "hello" → the view says so and tb-mini lists only hello-world; open
// tb-mini's overview → reload → still filtered, and the overview tab is back with tb-mini's grid → clear, close.
import { waitForWorkbench } from '../../../.ci/vscode/workbench';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import type { Run } from '../../../src/core/model';
import { problemCount } from '../../../src/views/tree/nodes';
import { openOverviewFromPalette, type Scenario, type UiContext } from '../driver';

async function overviewOf(ctx: UiContext, run: Run, when: string): Promise<void> {
  const frame = await ctx.webviewFrame('#grid');
  await ctx.until(async () => (await frame.locator('h1 .run-label').textContent().catch(() => null)) === run.label, `${when}: the overview shows ${run.label}`, 60_000);
  await ctx.until(async () => (await frame.locator('#grid tbody tr.task-row th.task').count()) === run.tasks.length, `${when}: the grid has ${run.tasks.length} task rows`);
  // Its Problems count is the Runs tree's: the problems and the tasks left out (skipped / unvalidated), listed.
  const count = (await frame.locator('section.problems h2 vscode-badge').textContent())?.trim();
  if (count !== String(problemCount(run))) throw new Error(`${when}: the overview counts ${count} problems, the tree ${problemCount(run)}`);
  for (const x of run.skipped) {
    if (!(await frame.locator('li.left-out.skipped', { hasText: x.taskId }).first().isVisible())) throw new Error(`${when}: skipped task ${x.taskId} is not listed`);
  }
}

const MESSAGE = 'Filtered by text "hello"';

async function filteredView(ctx: UiContext, when: string): Promise<void> {
  await ctx.openHarborView();
  await ctx.until(() => ctx.page.getByText(MESSAGE, { exact: false }).first().isVisible(), `${when}: the view says it is filtered`, 60_000);
  const run = await ctx.expand(/tb-mini/);
  await run.isVisible();
  await ctx.until(async () => (await ctx.treeRowTexts()).some((t) => /^hello-world/.test(t)), `${when}: hello-world is listed`);
  const texts = await ctx.treeRowTexts();
  if (texts.some((t) => /^(long-build|fix-permissions)/.test(t))) throw new Error(`${when}: tasks not matching "hello" are listed: ${texts.join(' | ')}`);
}

/**
 * "Harbor: Filter by Text" from the palette, typed into its input box. The box replaces the palette's own input and
 * was once seen not yet editable (inert) right after: then the box is closed and the command run again.
 */
async function filterByText(ctx: UiContext, text: string): Promise<void> {
  const { page } = ctx;
  for (let attempt = 1; ; attempt++) {
    await ctx.runCommand('Harbor: Filter by Text');
    await page.locator('.quick-input-widget', { hasText: 'Part of a task id or name' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    const input = page.locator('.quick-input-widget input[aria-label="Filter tasks by text"]').first();
    try {
      await input.fill(text, { timeout: 5000 });
      await page.keyboard.press('Enter');
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      ctx.log(`the filter input was not editable (${(e as Error).message.split('\n')[0]}); trying again`);
      await page.keyboard.press('Escape');
    }
  }
}

export const scenario: Scenario = {
  name: 'workspace-state',
  async run(ctx) {
    const { page } = ctx;
    const mini = (await loadRuns(new NodeFs(), [ctx.workspace])).find((r) => r.kind === 'nemo-gym' && r.label.startsWith('tb-mini'));
    if (!mini) throw new Error('examples/ lacks tb-mini');
    await ctx.openHarborView();
    await ctx.until(() => ctx.treeRow(/tb-mini/).isVisible(), 'the tb-mini run is listed', 60_000);
    try {
      await ctx.runCommand('View: Close All Editors');
      await openOverviewFromPalette(ctx, 'tb-mini');
      await overviewOf(ctx, mini, 'before the reload');

      await filterByText(ctx, 'hello');
      await filteredView(ctx, 'before the reload');
      await ctx.shot('1-filtered');

      // As a person does it: the workbench shuts down (saving its state), then loads again.
      await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 60_000 }), ctx.runCommand('Developer: Reload Window')]);
      await waitForWorkbench(page);
      await filteredView(ctx, 'after the reload');
      await overviewOf(ctx, mini, 'after the reload');
      await page.locator('.tabs-container .tab', { hasText: `Overview: ${mini.label}` }).first().waitFor({ state: 'visible', timeout: 10_000 });
      await ctx.shot('2-restored-after-reload');
    } finally {
      await page.keyboard.press('Escape').catch(() => undefined);
      await ctx.runCommand('Harbor: Clear Filter').catch(() => undefined);
      await ctx.runCommand('View: Close All Editors').catch(() => undefined);
    }
    await ctx.until(async () => !(await page.getByText(MESSAGE, { exact: false }).first().isVisible().catch(() => false)), 'the filter is cleared');
  },
};
