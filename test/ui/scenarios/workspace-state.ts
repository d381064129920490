// What the workspace remembers across a window reload (last scenario: it reloads the page): the Runs tree's filter.
// Filter by text "hello" → the view says so and tb-mini lists only hello-world → reload → still filtered → clear.
import { waitForWorkbench } from '../../../.ci/vscode/workbench';
import type { Scenario, UiContext } from '../driver';

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

export const scenario: Scenario = {
  name: 'workspace-state',
  async run(ctx) {
    const { page } = ctx;
    await ctx.openHarborView();
    await ctx.until(() => ctx.treeRow(/tb-mini/).isVisible(), 'the tb-mini run is listed', 60_000);
    try {
      await ctx.runCommand('Harbor: Filter by Text');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('hello');
      await page.keyboard.press('Enter');
      await filteredView(ctx, 'before the reload');
      await ctx.shot('1-filtered');

      await page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
      await waitForWorkbench(page);
      await filteredView(ctx, 'after the reload');
      await ctx.shot('2-filtered-after-reload');
    } finally {
      await page.keyboard.press('Escape').catch(() => undefined);
      await ctx.runCommand('Harbor: Clear Filter').catch(() => undefined);
    }
    await ctx.until(async () => !(await page.getByText(MESSAGE, { exact: false }).first().isVisible().catch(() => false)), 'the filter is cleared');
  },
};
