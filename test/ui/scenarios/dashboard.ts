// The run dashboard in the Run Overview, in the real workbench on a copy of examples/: the Harbor job's outcome bar,
// pass@k table and curve, reward histogram and failure causes; a click on a failure cause filters the virtualised
// task table to the tasks with that exception (the count the view model computes); the reward provenance warning of
// the trial whose agent wrote its own reward.json; keyboard selection and the rewardkit details of the selected
// task, Enter opening its trajectory; the same in the dark theme; the viewer dataset's pivot flipped from models to
// harnesses as columns; the training run's uPlot curves. Screenshots: screenshots/ui/dashboard-<step>.png.
import type { FrameLocator } from 'playwright-core';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import { dashboardModel } from '../../../src/core/dashboard';
import { closeEditors, collapseTree, openOverviewFromPalette, type Scenario, type UiContext } from '../driver';
import { runRow } from '../../../src/views/tree/describe';

async function shown(frame: FrameLocator): Promise<number> {
  return Number(await frame.locator('section.task-table').getAttribute('data-shown'));
}

/**
 * Toggles the colour theme and waits until the webview has it. The workbench's own class says whether the toggle
 * took (seen: the palette's command lost while the focus was inside the webview): only then is it run again, so the
 * theme is never toggled twice; the webview's body class says when the page has re-themed.
 */
async function toggleTheme(ctx: UiContext, frame: FrameLocator): Promise<string> {
  const isDark = async (cls: Promise<string | null>) => /\b(vs-dark|vscode-dark|hc-black|vscode-high-contrast)\b/.test((await cls) ?? '');
  const workbenchDark = () => isDark(ctx.page.locator('.monaco-workbench').first().getAttribute('class'));
  const pageDark = () => isDark(frame.locator('body').getAttribute('class'));
  const want = !(await workbenchDark());
  // Away from the editor tab just clicked: its hover would cover the palette.
  await ctx.page.mouse.move(25, 600);
  for (let i = 0; i < 4 && (await workbenchDark()) !== want; i++) {
    // Seen: the palette's input inert (a tab's hover open over it) and the fill refused; the hover and any palette
    // are dismissed, and the command is tried again; whether it took is read from the workbench, never assumed.
    const ran = await ctx.runCommand('Preferences: Toggle between Light/Dark Themes').then(() => true, (e: unknown) => {
      ctx.log(`theme toggle: the palette did not take the command (${e instanceof Error ? e.message.split('\n')[0] : String(e)}), trying again`);
      return false;
    });
    if (!ran) {
      await ctx.page.keyboard.press('Escape');
      await ctx.page.mouse.move(25, 600);
      await ctx.until(async () => !(await ctx.page.locator('.quick-input-widget').first().isVisible().catch(() => false)), 'the palette is closed', 5000).catch(() => undefined);
      continue;
    }
    await ctx.until(async () => (await workbenchDark()) === want, 'the workbench changes theme', 5000).catch(() => undefined);
  }
  await ctx.until(async () => (await workbenchDark()) === want, 'the workbench changes theme');
  await ctx.until(async () => (await pageDark()) === want, 'the webview follows the theme change');
  await ctx.page.waitForTimeout(600);
  return want ? 'dark' : 'light';
}

export const scenario: Scenario = {
  name: 'dashboard',
  async run(ctx) {
    const { page } = ctx;
    const csp: string[] = [];
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });
    const runs = await loadRuns(new NodeFs(), [ctx.workspace]);
    const job = runs.find((r) => r.kind === 'harbor-job' && r.root.includes('/harbor/jobs/'));
    const dataset = runs.find((r) => r.kind === 'viewer-data' && r.label.endsWith('Eval v1'));
    const training = runs.find((r) => r.kind === 'viewer-data' && r.training && r.label.includes('GRPO 2B'));
    if (!job || !dataset || !training) throw new Error(`examples/ lacks the Harbor job, the Eval v1 dataset or the GRPO 2B run: ${runs.map((r) => r.label).join(', ')}`);
    const model = dashboardModel(job);

    // 1. The Harbor job's dashboard.
    await ctx.openHarborView();
    // The runs are loaded once the tree lists them (the palette's run pick is empty before).
    await ctx.treeItem(runRow(job).label).waitFor({ state: 'visible', timeout: 90_000 });
    await openOverviewFromPalette(ctx, job.label.split(' · ')[0]);
    const frame = await ctx.webviewFrame('#dash-summary');
    await ctx.until(async () => (await frame.locator('.pass-at table.data tbody tr').count()) === model.passAt.length, `the pass@k table has ${model.passAt.length} rows`);
    await ctx.until(async () => (await frame.locator('.outcome-bar .seg').count()) > 3, 'the outcome bar has its parts');
    await ctx.until(async () => (await frame.locator('.tt-body .tt-row').count()) > 0, 'the task table has rows');
    const p1 = (await frame.locator('.pass-at table.data tbody tr').first().locator('td').nth(1).textContent())?.trim();
    if (p1 !== model.passAt[0].value?.toFixed(3)) throw new Error(`pass@1 shows ${p1}, the model says ${model.passAt[0].value}`);
    await ctx.shot('1-harbor-light');

    // 2. The provenance warning of the agent-written reward.json.
    const prov = frame.locator('#provenance');
    await prov.scrollIntoViewIfNeeded();
    const provText = (await prov.textContent()) ?? '';
    if (!/reward\.json says 1 and reward\.txt says 0/.test(provText)) throw new Error(`no disagreeing-reward warning: ${provText.slice(0, 300)}`);
    await ctx.shot('2-provenance-warning');

    // 3. A failure cause filters the table to the tasks with that exception.
    const cause = model.causes.find((c) => c.key === 'exception:AgentTimeoutError') ?? model.causes[0];
    const expected = model.rows.filter((r) => r.causes.includes(cause.key)).length;
    await frame.locator(`button.cause[data-key="${cause.key}"]`).click();
    await ctx.until(async () => (await shown(frame)) === expected, `the cause ${cause.key} leaves ${expected} task(s)`);
    const sel = await frame.locator('select.tt-cause').inputValue();
    if (sel !== cause.key) throw new Error(`the cause filter shows "${sel}"`);
    await ctx.shot('3-filter-by-exception');
    await frame.locator('button.tt-clear').click();
    await ctx.until(async () => (await shown(frame)) === model.rows.length, 'clearing the filters shows every task');

    // 4. Keyboard: the rewardkit task selected with the arrows shows its reward-details.json.
    await frame.locator('input.tt-text').fill('grade-essay');
    await ctx.until(async () => (await shown(frame)) === 1, 'the text filter leaves grade-essay');
    await frame.locator('.tt-body').focus();
    await page.keyboard.press('Home');
    await ctx.until(async () => (await frame.locator('.tt-row.selected').count()) === 1, 'Home selects the first row');
    await ctx.until(async () => /answers the question asked/.test((await frame.locator('#selection .reward-details').textContent().catch(() => '')) ?? ''),
      'the selected task shows its reward-details.json');
    const xss = await frame.locator('body').evaluate(() => document.querySelectorAll('#selection script').length);
    if (xss !== 0) throw new Error('judge text became markup');
    await frame.locator('#selection').scrollIntoViewIfNeeded();
    await ctx.shot('4-reward-details');
    // Enter opens the selected task's trajectory in the trajectory viewer (with its task, outcome and reward).
    await page.keyboard.press('Enter');
    const trajectoryTab = page.locator('.tabs-container .tab', { hasText: 'trajectory.json' });
    await trajectoryTab.waitFor({ state: 'visible', timeout: 20_000 });
    await ctx.webviewFrame('#app');
    await page.waitForTimeout(1000);
    await ctx.shot('4b-trajectory-from-dashboard');
    await closeEditors(ctx);
    await openOverviewFromPalette(ctx, job.label.split(' · ')[0]);
    await ctx.webviewFrame('#dash-summary');

    // 5. Dark theme.
    await frame.locator('#dash-summary').scrollIntoViewIfNeeded();
    await page.locator('.tabs-container .tab', { hasText: 'Overview:' }).first().click();
    const theme = await toggleTheme(ctx, frame);
    await frame.locator('#dash-summary').scrollIntoViewIfNeeded();
    await ctx.shot(`5-harbor-${theme}`);
    await toggleTheme(ctx, frame);
    await closeEditors(ctx);

    // 6. The viewer dataset: the pivot, models as columns then harnesses as columns.
    await openOverviewFromPalette(ctx, 'Eval v1');
    const vframe = await ctx.webviewFrame('#pivot');
    const heading = async () => (await vframe.locator('#pivot h2').textContent()) ?? '';
    const before = await heading();
    await vframe.locator('#pivot').scrollIntoViewIfNeeded();
    await ctx.shot('6-pivot-models-as-columns');
    await vframe.locator('#pivot button.pivot-flip').click();
    await ctx.until(async () => (await heading()) !== before, 'the pivot flips');
    const cols = await vframe.locator('#pivot table.data').first().locator('thead th').allTextContents();
    const harnesses = [...new Set(dataset.tasks.flatMap((t) => t.attempts.map((a) => String(a.details?.harness ?? ''))))];
    for (const h of harnesses) if (!cols.includes(h)) throw new Error(`harness ${h} is not a column after the flip: ${cols.join(', ')}`);
    await vframe.locator('#pivot').scrollIntoViewIfNeeded();
    await ctx.shot('7-pivot-harnesses-as-columns');
    await closeEditors(ctx);

    // 7. The training run's curves (uPlot), light and dark.
    await openOverviewFromPalette(ctx, 'GRPO 2B');
    const tframe = await ctx.webviewFrame('section.training');
    await ctx.until(async () => (await tframe.locator('section.training .uplot').count()) >= 3, 'the training charts are drawn');
    // The charts are made one per task: every one of them comes, one for each curve (reward with its band, loss, kl, …).
    await ctx.until(async () => {
      const wanted = Number(await tframe.locator('section.training').getAttribute('data-charts-wanted'));
      return wanted >= 5 && (await tframe.locator('section.training .uplot').count()) === wanted;
    }, 'every training chart is drawn');
    const titles = await tframe.locator('section.training .uplot .u-title').allTextContents();
    for (const t of ['reward ± reward_std', 'loss', 'kl']) if (!titles.includes(t)) throw new Error(`no "${t}" chart among ${titles.join(', ')}`);
    const points = Number(await tframe.locator('section.training').getAttribute('data-points'));
    if (points !== training.training!.steps) throw new Error(`the charts show ${points} points, the run has ${training.training!.steps} steps`);
    await tframe.locator('section.training').scrollIntoViewIfNeeded();
    await ctx.shot('8-training-light');
    const t2 = await toggleTheme(ctx, tframe);
    await ctx.shot(`9-training-${t2}`);
    await toggleTheme(ctx, tframe);
    if (csp.length) throw new Error(`CSP violations in the console: ${csp.slice(0, 3).join(' | ')}`);
    await closeEditors(ctx);
    await collapseTree(ctx);
  },
};
