// The trajectory viewer's media and its memory, as a person sees them (code-server + chromium): a v1.8 audio part
// plays from a path relative to the trajectory (an <audio> element whose file loads: its duration is read), an image
// shows; an image or audio path that leaves the trajectory's folder (../, an absolute path, a symbolic link pointing
// out, a missing file) is refused with a visible reason and no element that could load it; the same page in the
// high-contrast theme; and after a window reload the editor comes back on the same step, search and expanded state.
// Screenshots: screenshots/ui/trajectory-media-<step>.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Scenario } from '../driver';
import { waitForWorkbench, webviewFrame } from '../../../.ci/vscode/workbench';
import { mediaTrajectory } from '../../../scripts/sample-runs/atifFeatures';
import { quickOpen, selectedNum, write } from './trajectory';

export const scenario: Scenario = {
  name: 'trajectory-media',
  async run(ctx) {
    const { page } = ctx;
    const base = path.join(ctx.workspace, 'trajectories', 'media');
    write(base, mediaTrajectory());
    fs.symlinkSync(path.join(base, 'outside.png'), path.join(base, 'agent', 'images', 'link.png'));

    // 1. Step 1: the image and the audio load from inside the trajectory's folder.
    // The workbench may still be indexing the new files (this can be the first scenario): Quick Open until it finds it.
    await ctx.until(async () => {
      try { await quickOpen(ctx, 'trajectories/media/agent/trajectory.json'); return true; } catch { await page.keyboard.press('Escape'); return false; }
    }, 'Quick Open finds the media trajectory', 120_000);
    let f = await ctx.webviewFrame('.step-list .row');
    await ctx.until(async () => (await f.locator('figure.media.audio:not(.refused) audio').count()) === 1, 'the audio part is an <audio> element');
    const audio = await f.locator('figure.media.audio audio').evaluate(async (a: HTMLAudioElement) => {
      if (a.readyState < 1) {
        a.load();
        await new Promise((r) => { a.addEventListener('loadedmetadata', r, { once: true }); a.addEventListener('error', r, { once: true }); setTimeout(r, 8000); });
      }
      return { duration: a.duration, error: a.error?.code ?? null, src: a.currentSrc.slice(0, 200), controls: a.controls };
    });
    if (!(audio.duration > 0.15 && audio.duration < 0.25) || audio.error !== null || !audio.controls) throw new Error(`the audio did not load: ${JSON.stringify(audio)}`);
    ctx.log(`audio loaded: ${audio.duration.toFixed(3)} s from ${audio.src}`);
    await ctx.until(async () => (await f.locator('figure.media.image:not(.refused) img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth === 1)), 'the image loads');
    if (!((await f.locator('figure.media.audio figcaption').textContent()) ?? '').includes('audio/note.wav')) throw new Error('the audio caption names its path');
    await ctx.shot('1-audio-image');

    // 2. Step 2: four parts that leave the folder or do not exist, each refused with why; nothing that could load them.
    await f.locator('.row.selected').click();
    await page.keyboard.press('j');
    await ctx.until(async () => (await selectedNum(f)) === '#2', 'step #2 is selected');
    await ctx.until(async () => (await f.locator('.detail figure.media.refused').count()) === 4, 'the four parts are refused');
    const text = (await f.locator('.detail').textContent()) ?? '';
    for (const why of ['../outside.png is outside the trajectory\'s folder: refused', 'images/link.png is a link to a file outside the trajectory\'s folder: refused',
      '/etc/passwd is outside the trajectory\'s folder: refused', 'audio/missing.wav does not exist']) {
      if (!text.includes(why)) throw new Error(`not said: "${why}" in ${text.slice(0, 600)}`);
    }
    if ((await f.locator('.detail img, .detail audio').count()) !== 0) throw new Error('a refused part has an element that could load it');
    await ctx.shot('2-refused');

    // 3. High contrast: the same step, readable (workspace setting, put back afterwards).
    const settings = path.join(ctx.workspace, '.vscode', 'settings.json');
    const before = fs.existsSync(settings) ? fs.readFileSync(settings, 'utf8') : null;
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, JSON.stringify({ ...(before ? JSON.parse(before) as object : {}), 'workbench.colorTheme': 'Default High Contrast' }, null, 2));
    try {
      await ctx.until(async () => ((await f.locator('body').getAttribute('class')) ?? '').includes('vscode-high-contrast'), 'the page follows the high-contrast theme', 30_000);
      await page.waitForTimeout(500);
      await ctx.shot('3-high-contrast');
    } finally {
      if (before === null) fs.rmSync(settings, { force: true }); else fs.writeFileSync(settings, before);
    }
    await ctx.until(async () => !((await f.locator('body').getAttribute('class')) ?? '').includes('vscode-high-contrast'), 'the theme is back', 30_000);

    // 4. Step 3, a search and everything expanded; the window reloads; the editor comes back the same.
    await f.locator('.row.selected').click();
    await page.keyboard.press('j');
    await ctx.until(async () => (await selectedNum(f)) === '#3', 'step #3 is selected');
    await page.keyboard.press('e');
    // Ctrl+F reaches the page's search box (not VS Code's find); Enter / Shift+Enter and the arrows step through matches.
    await page.keyboard.press('Control+f');
    await ctx.until(async () => f.locator('#search').evaluate((e) => e === document.activeElement), 'Ctrl+F focuses the search box');
    await page.keyboard.type('note');
    await ctx.until(async () => /^\d+ match(es)? · (\d \/ )?2 steps$/.test((await f.locator('#match-count').textContent()) ?? ''), 'the search counts matches in 2 steps');
    await f.locator('#search').press('Enter');
    await ctx.until(async () => (await selectedNum(f)) === '#1' && /1 \/ 2 steps/.test((await f.locator('#match-count').textContent()) ?? ''), 'Enter goes to the next match (wrapping to #1)');
    await f.locator('#search').press('Shift+Enter');
    await ctx.until(async () => (await selectedNum(f)) === '#3', 'Shift+Enter goes back to #3');
    await f.locator('#prev-hit').click();
    await ctx.until(async () => (await selectedNum(f)) === '#1', 'the previous-match button goes to #1');
    await f.locator('#next-hit').click();
    await ctx.until(async () => (await selectedNum(f)) === '#3', 'the next-match button goes to #3');
    await ctx.until(async () => (await f.locator('.detail details[open]').count()) > 0, 'everything is expanded');
    await ctx.shot('4-search-expanded');
    const count = (await f.locator('#match-count').textContent()) ?? '';
    await page.waitForTimeout(500);
    // Reloaded as a user does (Developer: Reload Window), so VS Code saves which editors are open on its way out: a
    // bare page reload left it to the page's unload, and once (a cold CI run) the window came back with the editors
    // of an earlier save, without this one.
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 60_000 }), ctx.runCommand('Developer: Reload Window')]);
    await waitForWorkbench(page, 60_000);
    // The reloaded window starts a new extension host, which activates the extension when it restores the editor: on
    // a busy 2-core machine that alone took ~30 s (longer than the 20 s a webview is usually given), so it gets 120 s.
    const t0 = Date.now();
    f = await webviewFrame(page, '.step-list .row.selected', 120_000);
    ctx.log(`after the reload the editor showed its selected step in ${Date.now() - t0} ms`);
    await ctx.until(async () => (await selectedNum(f)) === '#3', 'after the reload, step #3 is selected again', 30_000);
    await ctx.until(async () => (await f.locator('#search').inputValue()) === 'note', 'the search is back');
    await ctx.until(async () => ((await f.locator('#match-count').textContent()) ?? '') === count, `the count is back (${count})`);
    await ctx.until(async () => (await f.locator('.detail details').count()) > 0, 'the detail shows its sections');
    const closed = await f.locator('.detail details:not([open])').count();
    if (closed !== 0) throw new Error(`${closed} sections are collapsed after the reload (everything was expanded)`);
    await ctx.shot('5-restored-after-reload');
    // Collapse all (E) closes every section.
    await f.locator('.row.selected').click();
    await page.keyboard.press('Shift+E');
    await ctx.until(async () => (await f.locator('.detail details[open]').count()) === 0, 'E collapses every section');
  },
};
