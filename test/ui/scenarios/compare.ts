// Compare as a person does it (code-server + chromium on a copy of examples/): two Harbor jobs of the compare
// examples selected in the Runs tree (click, Ctrl+click), "Compare Runs" from the context menu; the panel lists the
// regression first; its "Compare" button opens the two attempts side by side at the first divergence; "Diff verifier
// output" opens VS Code's own diff editor. Screenshots: screenshots/ui/compare-<step>.png.
import { closeEditors, collapseTree, type Scenario } from '../driver';

const BASE = '2026-09-02__10-00-00';
const CAND = '2026-09-03__10-00-00';

export const scenario: Scenario = {
  name: 'compare',
  async run(ctx) {
    const { page } = ctx;
    const csp: string[] = [];
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });

    // 1. Two runs selected in the tree, "Compare Runs" from the context menu.
    await ctx.openHarborView();
    const a = ctx.treeItem(BASE);
    const b = ctx.treeItem(CAND);
    await a.waitFor({ state: 'visible', timeout: 60_000 });
    await a.click();
    await b.click({ modifiers: ['ControlOrMeta'] });
    await ctx.until(async () => (await page.locator('.sidebar .monaco-list-row.selected').count()) === 2, 'two runs are selected');
    await b.click({ button: 'right' });
    const item = page.locator('.context-view .action-label', { hasText: /^Compare Runs$/ }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    // A menu just drawn can drop the first click (the menu stays open with the item only hovered): click again until
    // the menu has closed, which it does once the item was taken.
    for (let i = 0; i < 3 && (await item.isVisible()); i++) {
      await item.click();
      await ctx.until(async () => !(await item.isVisible()), 'the context menu closes', 2_000).catch(() => undefined);
    }
    if (await item.isVisible()) throw new Error('"Compare Runs" in the context menu did not take three clicks');
    const frame = await ctx.webviewFrame('.task-row.change-regressed');
    const first = await frame.locator('.vlist .task-row').first().locator('.task').textContent();
    if (!first?.endsWith('regex-log')) throw new Error(`the first task row is ${first}, expected the regression regex-log`);
    const sides = await frame.locator('.side-list li').allTextContents();
    if (sides.length !== 2 || !sides[0].includes(BASE) || !sides[1].includes(CAND)) throw new Error(`sides: ${sides.join(' | ')}`);
    await page.mouse.move(900, 850); // no tree tooltip over the screenshot
    await page.waitForTimeout(300);
    await ctx.shot('1-runs');

    // 2. "Compare" on the regression: the attempts side by side, the first divergence marked and in view.
    await frame.locator('.task-row.change-regressed button.compare').first().click();
    const af = await ctx.webviewFrame('.arow.divergence');
    await af.locator('.arow.divergence').waitFor({ state: 'visible', timeout: 10_000 });
    const summary = await af.locator('.summary').textContent();
    if (!/First divergence at row 5/.test(summary ?? '')) throw new Error(`summary: ${summary}`);
    await ctx.shot('2-attempts');

    // 3. The verifier outputs in VS Code's diff editor.
    await af.locator('button.action', { hasText: 'Diff verifier output' }).click();
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.locator('.tabs-container .tab', { hasText: 'Verifier:' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(500);
    await ctx.shot('3-verifier-diff');
    if (csp.length) throw new Error(`CSP violations in the console: ${csp.slice(0, 3).join(' | ')}`);
    await closeEditors(ctx);
    await a.click();
    await collapseTree(ctx);
  },
};
