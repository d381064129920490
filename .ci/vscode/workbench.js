// Playwright helpers for VS Code's workbench as code-server serves it: the Harbor view, tree rows, webviews, the
// Problems panel, the command palette, and the `@@screenshot` / `@@webview` / `@@ui` hooks that integration tests
// running inside the extension host print to ask the driver for a screenshot or a real click.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** `s` as a regular expression that matches it literally. */
const escapeRe = (s) => String(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function waitForWorkbench(page, timeout) {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeout || 60000 });
}

/** Drags the side bar's edge so that it is `width` px wide (long run labels stay readable in screenshots). */
async function widenSideBar(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox().catch(() => null);
  if (!box || box.width >= width) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
  await page.mouse.move(box.x + width + 300, y);
}

/** The activity-bar entry of a view container, by its title ("Harbor"). */
function activityItem(page, title) {
  return page.locator(`.activitybar .action-item a.action-label[aria-label^="${title}"]`).first();
}

/**
 * The side bar's pane header of the view titled exactly `view` (case aside): a folder named "my-runs" in the Explorer
 * has a pane header too, and a loose match on "Runs" took it for the Runs view (the click on the Harbor icon was
 * then skipped).
 */
function paneHeader(page, view) {
  const exact = new RegExp(`^\\s*${escapeRe(view)}\\s*$`, 'i');
  return page.locator('.sidebar .pane-header:visible').filter({ has: page.locator('h3.title', { hasText: exact }) }).first();
}

/**
 * Opens the view container titled `container` (clicking its activity-bar icon unless the view is already shown) and
 * waits for the view titled `view`: its pane header, or the side bar's title when the view is alone in its container.
 */
async function openView(page, container, view, timeout) {
  const t = timeout || 30000;
  const shown = page.locator('.sidebar .composite.title .title-label:visible', { hasText: view }).or(paneHeader(page, view)).first();
  if (!(await shown.isVisible().catch(() => false))) {
    const item = activityItem(page, container);
    await item.waitFor({ state: 'visible', timeout: t });
    await item.click();
    await page.mouse.move(700, 500); // no hover tooltip over the icon in screenshots
    // A click on the active container's icon toggles the side bar: when the view was still being restored (after a
    // reload), the check above missed it and the click hid the side bar. Then it is shown again.
    const seen = await shown.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false);
    if (!seen && !(await page.locator('.part.sidebar').isVisible().catch(() => false))) {
      await item.click();
      await page.mouse.move(700, 500);
    }
  }
  await shown.waitFor({ state: 'visible', timeout: t });
  await widenSideBar(page, 560);
  const header = paneHeader(page, view);
  if ((await header.count()) && (await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return shown;
}

function textMatcher(label) {
  if (label instanceof RegExp) return label;
  return new RegExp(escapeRe(label), 'i');
}

/** The first side-bar tree row whose text matches `label` (a string, loosely and case-insensitively, or a RegExp). */
function treeRow(page, label) {
  return page.locator('.sidebar .monaco-list-row', { hasText: textMatcher(label) }).first();
}

/** The first side-bar tree row whose label (not its description) is exactly `label`. */
function treeItem(page, label) {
  const exact = new RegExp(`^\\s*${escapeRe(label)}\\s*$`);
  return page.locator('.sidebar .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
}

/** Texts of the rendered side-bar tree rows: label and description ("tb-mini · terminus_2  3/5 passed …"). */
async function treeRowTexts(page) {
  return page.locator('.sidebar .monaco-list-row').evaluateAll((rows) => rows.map((r) => {
    const label = r.querySelector('.monaco-icon-label');
    const name = label && label.querySelector('.label-name');
    const desc = label && label.querySelector('.label-description');
    if (name) return `${(name.textContent || '').trim()}${desc && desc.textContent ? `  ${desc.textContent.trim()}` : ''}`;
    return (r.textContent || '').trim();
  }));
}

/**
 * Expands a tree row (no-op when already expanded) and waits for it to be expanded. `target`: a Locator of the row,
 * or a label matched as treeRow() does.
 */
async function expand(page, target, timeout) {
  const row = typeof target === 'string' || target instanceof RegExp ? treeRow(page, target) : target;
  const label = typeof target === 'string' || target instanceof RegExp ? String(target) : 'row';
  await row.waitFor({ state: 'visible', timeout: timeout || 30000 });
  if ((await row.getAttribute('aria-expanded')) === 'true') return row;
  const twistie = row.locator('.monaco-tl-twistie');
  if (await twistie.count()) await twistie.click(); else await row.click();
  for (let i = 0; i < 50; i++) {
    if ((await row.getAttribute('aria-expanded')) === 'true') return row;
    await sleep(100);
  }
  await row.press('ArrowRight').catch(() => {});
  if ((await row.getAttribute('aria-expanded')) !== 'true') throw new Error(`tree row "${label}" did not expand`);
  return row;
}

/** Collapses a tree row (no-op when collapsed). */
async function collapse(page, target) {
  const row = typeof target === 'string' || target instanceof RegExp ? treeRow(page, target) : target;
  if ((await row.getAttribute('aria-expanded')) !== 'true') return row;
  const twistie = row.locator('.monaco-tl-twistie');
  if (await twistie.count()) await twistie.click(); else await row.click();
  for (let i = 0; i < 50 && (await row.getAttribute('aria-expanded')) === 'true'; i++) await sleep(100);
  return row;
}

/** The content of the visible webview whose document contains `css` (polls up to `timeout`). Returns a Locator. */
async function webviewLocator(page, css, timeout) {
  const deadline = Date.now() + (timeout || 20000);
  for (;;) {
    const outers = page.locator('iframe.webview:visible');
    const n = await outers.count();
    for (let i = 0; i < n; i++) {
      const loc = outers.nth(i).contentFrame().locator('iframe#active-frame').contentFrame().locator(css);
      if ((await loc.count().catch(() => 0)) > 0) return loc.first();
    }
    if (Date.now() > deadline) throw new Error(`no visible webview contains ${css}`);
    await sleep(250);
  }
}

/** The FrameLocator of the visible webview's document that contains `css`. */
async function webviewFrame(page, css, timeout) {
  const deadline = Date.now() + (timeout || 20000);
  for (;;) {
    const outers = page.locator('iframe.webview:visible');
    const n = await outers.count();
    for (let i = 0; i < n; i++) {
      const frame = outers.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
      if ((await frame.locator(css).count().catch(() => 0)) > 0) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no visible webview contains ${css}`);
    await sleep(250);
  }
}

async function openProblems(page) {
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel').first().waitFor({ state: 'visible', timeout: 15000 });
}

/** Runs a command from the palette by (part of) its title. */
async function runCommand(page, title) {
  // The palette is typed into and checked, not trusted: with focus inside a webview (or while the workbench re-themes)
  // the first keys or the Enter can be lost. The text is re-filled until the input holds it, and the Enter is repeated
  // until the palette has taken it (closed, or moved on to the command's own quick pick, whose text differs). The
  // command itself is never started twice: only an Enter the palette did not take is repeated.
  const input = page.locator('.quick-input-widget input').first();
  const want = `>${title}`;
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  for (let i = 0; i < 3 && (await input.inputValue().catch(() => '')) !== want; i++) {
    await input.fill(want);
    await page.waitForTimeout(i * 100);
  }
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 10000 });
  const taken = async () => !(await input.isVisible().catch(() => false)) || (await input.inputValue().catch(() => '')) !== want;
  for (let i = 0; i < 3; i++) {
    await input.press('Enter');
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      if (await taken()) return;
      await page.waitForTimeout(100);
    }
  }
  throw new Error(`the command palette did not run "${title}"`);
}

/**
 * Acts on one hook line printed by a test inside the extension host:
 *   @@screenshot <name>                      page screenshot → <shotDir>/<name>.png
 *   @@webview <name> <click|text|shot> <css> inside the visible webview that contains <css>
 *   @@ui <name> <click|text|shot> <css>      on the workbench page
 * and writes <hookDir>/<kind>-<name>.json = { ok, file?, text?, error? } for the test to poll.
 * Returns false when the line is not a hook.
 */
async function handleHook(page, line, dirs) {
  const m = /^@@(screenshot|webview|ui) (\S+)(?: (click|text|shot) (.+))?$/.exec(line.trim());
  if (!m) return false;
  const [, kind, name, action, css] = m;
  const safe = name.replace(/[^\w.-]/g, '_');
  let result;
  try {
    fs.mkdirSync(dirs.shotDir, { recursive: true });
    const file = path.join(dirs.shotDir, `${safe}.png`);
    if (kind === 'screenshot') {
      await page.screenshot({ path: file });
      result = { ok: true, file };
    } else {
      if (!action || !css) throw new Error(`usage: @@${kind} <name> <click|text|shot> <css>`);
      const loc = kind === 'webview' ? await webviewLocator(page, css) : page.locator(css).first();
      if (kind === 'ui') await loc.waitFor({ state: 'visible', timeout: 20000 });
      if (action === 'click') { await loc.click({ timeout: 20000 }); result = { ok: true }; }
      else if (action === 'text') result = { ok: true, text: (await loc.textContent({ timeout: 20000 })) || '' };
      else { await loc.screenshot({ path: file, timeout: 20000 }); result = { ok: true, file }; }
    }
  } catch (e) {
    result = { ok: false, error: String((e && e.message) || e).split('\n')[0] };
  }
  fs.mkdirSync(dirs.hookDir, { recursive: true });
  const marker = path.join(dirs.hookDir, `${kind}-${safe}.json`);
  fs.writeFileSync(`${marker}.tmp`, JSON.stringify(result));
  fs.renameSync(`${marker}.tmp`, marker);
  return true;
}

module.exports = {
  waitForWorkbench, widenSideBar, activityItem, paneHeader, openView, treeRow, treeItem, treeRowTexts, expand, collapse, webviewLocator, webviewFrame, openProblems,
  runCommand, handleHook, textMatcher,
};
