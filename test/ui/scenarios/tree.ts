// The Runs tree as a person uses it (code-server + chromium on a copy of examples/):
// run → task → attempt → test-stdout.txt opens in a preview tab; a missing attempt carries a red "!" badge;
// "Harbor: Write Run Summary" from the palette writes tb-mini's summary; the Problems panel lists its missing path.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import type { Scenario, UiContext } from '../driver';

async function labelStyle(row: Locator): Promise<{ badge: string; color: string }> {
  return row.locator('.monaco-icon-label').first().evaluate((el) => {
    const name = el.querySelector('.label-name') ?? el;
    return { badge: getComputedStyle(el, '::after').content, color: getComputedStyle(name).color };
  });
}

function rgb(color: string): number[] {
  return (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
}

async function collapseAll(ctx: UiContext): Promise<void> {
  const button = ctx.page.locator('.sidebar .actions-container a.action-label[aria-label^="Collapse All"]').first();
  if (await button.isVisible().catch(() => false)) await button.click();
}

export const scenario: Scenario = {
  name: 'tree',
  async run(ctx) {
    const { page } = ctx;
    await ctx.openHarborView();
    const runRow = ctx.treeRow(/tb-mini/);
    await ctx.until(() => runRow.isVisible(), 'the tb-mini run is listed', 60_000);
    await ctx.until(async () => (await ctx.treeRowTexts()).some((t) => /2026-08-21__14-03-11/.test(t)), 'the Harbor job is listed');
    await ctx.until(async () => (await labelStyle(runRow)).badge !== 'none', 'the tb-mini run shows its problem count badge');
    await ctx.shot('1-runs');

    // run → task → attempt → test-stdout.txt
    await ctx.expand(/tb-mini/);
    await ctx.expand(/^hello-world/);
    await ctx.shot('2-task');
    await ctx.expand(/^#1.*passed/);
    await ctx.shot('3-attempt');
    // Hover: the Markdown tooltip with outcome and reward.
    await ctx.treeRow(/^#1.*passed/).locator('.monaco-icon-label').first().hover();
    const hover = page.locator('.monaco-hover', { hasText: 'Outcome' }).first();
    await hover.waitFor({ state: 'visible', timeout: 15_000 });
    if (!/Reward:\s*1\.0/.test((await hover.textContent()) ?? '')) throw new Error(`the tooltip lacks the reward: ${await hover.textContent()}`);
    await ctx.shot('3b-tooltip');
    await page.mouse.move(900, 600);
    await ctx.treeRow(/^test-stdout\.txt/).click();
    const tab = page.locator('.tabs-container .tab.active');
    await ctx.until(async () => /test-stdout\.txt/.test((await tab.getAttribute('aria-label')) ?? ''), 'test-stdout.txt is the active editor tab');
    const aria = (await tab.getAttribute('aria-label')) ?? '';
    if (!/preview/i.test(aria) && !/\bitalic\b/.test((await tab.getAttribute('class')) ?? '')) throw new Error(`the tab is not a preview: ${aria}`);
    await ctx.until(async () => ((await page.locator('.editor-instance .view-lines').first().textContent().catch(() => '')) ?? '').length > 0, 'the file\'s text is shown');
    await ctx.shot('4-test-stdout-open');

    // A missing attempt: red "!" badge, label in the error colour.
    await collapseAll(ctx);
    await ctx.expand(/tb-mini/);
    await ctx.expand(/^long-build/);
    const missing = ctx.treeRow(/^#2.*missing/);
    await missing.waitFor({ state: 'visible', timeout: 20_000 });
    const flagged = await ctx.until(async () => { const s = await labelStyle(missing); return s.badge === '"!"' ? s : undefined; }, 'the missing attempt shows a "!" badge');
    const plain = await labelStyle(ctx.treeRow(/^#1.*infra error/));
    if (plain.badge === '"!"') throw new Error('an unflagged attempt has a badge');
    const [r, g, b] = rgb(flagged.color);
    if (flagged.color === plain.color || !(r > g && r > b)) throw new Error(`the missing attempt is not in the error colour: ${flagged.color} (plain ${plain.color})`);
    ctx.log(`missing attempt: badge ${flagged.badge}, colour ${flagged.color} (plain ${plain.color})`);
    await ctx.shot('5-missing-attempt-decoration');

    // Write Run Summary from the palette, pick tb-mini's rollouts file.
    const summary = path.join(ctx.workspace, 'nemo-gym', 'tb-mini', 'rollouts_run_summary.json');
    const before = fs.existsSync(summary) ? fs.statSync(summary).mtimeMs : 0;
    await ctx.runCommand('Harbor: Write Run Summary');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill('tb-mini/rollouts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'tb-mini' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.locator('.notifications-toasts', { hasText: 'Wrote rollouts_run_summary.json' }).first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    if (!fs.existsSync(summary) || fs.statSync(summary).mtimeMs <= before) throw new Error(`${summary} was not (re)written`);
    await ctx.shot('6-summary-written');

    // The Problems panel: an entry for the missing verifier folder, on the summary file.
    const doc = JSON.parse(fs.readFileSync(summary, 'utf8')) as { missing_paths: string[] };
    const missingPath = doc.missing_paths[0];
    if (!missingPath) throw new Error('the summary lists no missing path');
    await ctx.openProblems();
    const rows = page.locator('.markers-panel .monaco-list-row');
    await ctx.until(async () => (await rows.allTextContents()).some((t) => t.includes('rollouts_run_summary.json')), 'the summary file is in the Problems panel');
    const entry = rows.filter({ hasText: missingPath }).first();
    await entry.waitFor({ state: 'visible', timeout: 20_000 });
    const text = (await entry.textContent()) ?? '';
    if (!/harbor-runs/.test(text) || !/missing-path/.test(text)) throw new Error(`the Problems entry lacks source / code: ${text}`);
    ctx.log(`problems entry: ${text}`);
    await ctx.shot('7-problems-panel');
  },
};
