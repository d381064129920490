// The Run Overview webview as a person uses it (code-server + chromium on a copy of examples/): the inline $(table)
// button on a run in the Runs tree opens the overview; inside the webview frame the grid has one row per task, every
// custom element is upgraded, no CSP violation reaches the console; the text filter narrows the rows; clicking a cell
// opens that attempt's test-stdout in an editor tab. Then the palette's "Harbor: Open Run Overview" with its run
// pick, and the same panel in a dark theme. Screenshots: screenshots/ui/overview-webview-<step>.png.
import type { FrameLocator } from 'playwright-core';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import { evidenceToOpen } from '../../../src/views/runOverviewModel';
import { closeEditors, collapseTree, openOverviewFromPalette, type Scenario } from '../driver';

async function undefinedElements(frame: FrameLocator): Promise<number> {
  return frame.locator('body').evaluate(() => document.querySelectorAll(':not(:defined)').length);
}

async function gridTexts(frame: FrameLocator): Promise<string[]> {
  return frame.locator('#grid tbody tr.task-row:visible th.task').allTextContents();
}

export const scenario: Scenario = {
  name: 'overview-webview',
  async run(ctx) {
    const { page } = ctx;
    const csp: string[] = [];
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });
    const runs = await loadRuns(new NodeFs(), [ctx.workspace]);
    const smoke = runs.find((r) => r.kind === 'nemo-gym' && r.label.startsWith('tb-smoke'));
    const mini = runs.find((r) => r.kind === 'nemo-gym' && r.label.startsWith('tb-mini'));
    if (!smoke || !mini) throw new Error(`examples/ lacks tb-smoke / tb-mini (runs: ${runs.map((r) => r.label).join(', ')})`);

    // 1. The inline button on the run's row.
    await ctx.openHarborView();
    const row = ctx.treeItem(smoke.label);
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.hover();
    const button = row.locator('a.action-label[aria-label^="Open Run Overview"]');
    await button.waitFor({ state: 'visible', timeout: 10_000 });
    await button.click();
    const frame = await ctx.webviewFrame('#grid');
    await ctx.until(async () => (await gridTexts(frame)).length === smoke.tasks.length,
      `the grid shows ${smoke.tasks.length} task rows`);
    const texts = await gridTexts(frame);
    for (const t of smoke.tasks) if (!texts.includes(t.label || t.id)) throw new Error(`no grid row for ${t.label}: ${texts.join(' | ')}`);
    const title = await frame.locator('h1 .run-label').textContent();
    if (title !== smoke.label) throw new Error(`the header says "${title}", expected "${smoke.label}"`);
    const tab = page.locator('.tabs-container .tab', { hasText: `Overview: ${smoke.label}` });
    await tab.waitFor({ state: 'visible', timeout: 10_000 });
    const undef = await undefinedElements(frame);
    if (undef !== 0) throw new Error(`${undef} custom element(s) were never defined`);
    // No inline script of ours: every script is VS Code's injected API script or a nonce'd file from out/webview.
    const scripts = await frame.locator('body').evaluate(() => [...document.scripts].map((x) => ({ id: x.id, src: x.src, nonce: !!x.nonce })));
    const ours = scripts.filter((x) => x.id !== '_vscodeApiScript');
    const bad = ours.filter((x) => !x.nonce || !/\/out\/webview\/runOverview(Early)?\.js$/.test(x.src));
    if (bad.length || ours.length !== 2) throw new Error(`the page's scripts are not the two nonce'd files: ${JSON.stringify(scripts)}`);
    await ctx.shot('1-inline-button');

    // 2. The text filter narrows the rows (and the other rows come back when it is cleared).
    const first = smoke.tasks[0].label || smoke.tasks[0].id;
    const input = frame.locator('vscode-textfield#filter-text input');
    await input.fill(first);
    await ctx.until(async () => { const t = await gridTexts(frame); return t.length === 1 && t[0] === first; }, `the filter "${first}" leaves one row`);
    await input.fill('');
    await ctx.until(async () => (await gridTexts(frame)).length === smoke.tasks.length, 'clearing the filter shows every row');

    // 3. A cell opens the attempt's test-stdout.
    const target = smoke.tasks.flatMap((t) => t.attempts).find((a) => evidenceToOpen(a)?.endsWith('test-stdout.txt'));
    if (!target) throw new Error('tb-smoke has no attempt with a test-stdout');
    await frame.locator(`#grid button.cell[data-attempt-id="${target.id.replace(/["\\]/g, '\\$&')}"]`).click();
    await page.locator('.tabs-container .tab[aria-label*="test-stdout.txt"]').first().waitFor({ state: 'visible', timeout: 15_000 });
    await ctx.shot('2-cell-opened');
    if (csp.length) throw new Error(`CSP violations in the console: ${csp.slice(0, 3).join(' | ')}`);
    await closeEditors(ctx);

    // 4. The command palette, then a pick of the run.
    await openOverviewFromPalette(ctx, 'tb-mini');
    const mframe = await ctx.webviewFrame('#grid');
    await ctx.until(async () => (await mframe.locator('h1 .run-label').textContent()) === mini.label, 'the palette opens the tb-mini overview');
    await ctx.until(async () => (await gridTexts(mframe)).length === mini.tasks.length, `the grid shows ${mini.tasks.length} rows`);
    await ctx.shot('3-palette-light');

    // 5. The same panel in the other (dark) theme; toggled back afterwards so later scenarios see the default.
    const themeClass = async () => (await mframe.locator('body').getAttribute('class')) ?? '';
    const before = await themeClass();
    await ctx.runCommand('Preferences: Toggle between Light/Dark Themes');
    await ctx.until(async () => (await themeClass()) !== before, 'the webview follows the theme change');
    await page.waitForTimeout(500);
    await ctx.shot(`4-palette-${before.includes('vscode-dark') ? 'light' : 'dark'}`);
    await ctx.runCommand('Preferences: Toggle between Light/Dark Themes');
    await ctx.until(async () => (await themeClass()) === before, 'the theme is back');
    if (csp.length) throw new Error(`CSP violations in the console: ${csp.slice(0, 3).join(' | ')}`);
    await closeEditors(ctx);
    await collapseTree(ctx);
  },
};
