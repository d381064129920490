// The trajectory viewer on text a stranger's agent wrote and files a killed trial left (code-server + chromium):
// bidi controls in the agent's name, a message, a tool call, an observation and the raw JSON are shown as escapes
// (`\u202e`), never reordering what is displayed; a trajectory cut off mid-file says where its JSON breaks and shows
// its text below, as the page promises. Screenshots: screenshots/ui/trajectory-hostile-<step>.png.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { Scenario } from '../driver';
import { featureTrajectory } from '../../../scripts/sample-runs/atifFeatures';
import { quickOpen, write } from './trajectory';

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const SPOOF = 'report\u202etxt.exe\u202c';
const ISOLATE = 'rm -rf \u2067/tmp/x\u2069 # cleanup';

function bidiTrajectory(): Record<string, unknown> {
  return {
    schema_version: 'ATIF-v1.7', session_id: `s-${SPOOF}`, notes: ISOLATE,
    agent: { name: `agent-${SPOOF}`, version: '1', model_name: `model-${SPOOF}` },
    steps: [
      { step_id: 1, source: 'user', message: `Open ${SPOOF} please` },
      {
        step_id: 2, source: 'agent', message: ISOLATE, reasoning_content: SPOOF,
        tool_calls: [{ tool_call_id: 'c1', function_name: `bash_${SPOOF}`, arguments: { keystrokes: `${ISOLATE}\n` } }],
        observation: { results: [{ source_call_id: 'c1', content: `New Terminal Output:\n\n${SPOOF}\n` }] },
      },
    ],
  };
}

/** The page's text (what a person reads, shadow roots aside): any bidi control left in it, and whether the escape shows. */
async function pageText(f: FrameLocator): Promise<{ raw: string[]; escaped: boolean }> {
  const text = await f.locator('body').evaluate(() => document.body.innerText);
  const raw = [...text.matchAll(new RegExp(BIDI.source, 'g'))].map((m) => `U+${m[0].charCodeAt(0).toString(16)} at …${text.slice(Math.max(0, m.index - 30), m.index + 10)}…`);
  return { raw, escaped: text.includes('report\\u202etxt.exe\\u202c') };
}

export const scenario: Scenario = {
  name: 'trajectory-hostile',
  async run(ctx) {
    const { page } = ctx;
    const base = path.join(ctx.workspace, 'trajectories');
    write(path.join(base, 'bidi', 'agent'), { 'trajectory.json': bidiTrajectory() });
    const whole = JSON.stringify(featureTrajectory()['trajectory.json'], null, 2);
    const cut = path.join(base, 'cut', 'agent', 'trajectory.json');
    fs.mkdirSync(path.dirname(cut), { recursive: true });
    fs.writeFileSync(cut, whole.slice(0, Math.floor(whole.length * 0.6)));

    // 1. Bidi controls: the header, the step list, the step (message, reasoning, tool call, observation), the raw JSON.
    await ctx.until(async () => {
      try { await quickOpen(ctx, 'trajectories/bidi/agent/trajectory.json'); return true; } catch { await page.keyboard.press('Escape'); return false; }
    }, 'Quick Open finds the bidi trajectory', 120_000);
    const f = await ctx.webviewFrame('.step-list .row');
    await f.locator('.step-list .row').nth(1).click();
    await ctx.until(async () => ((await f.locator('.detail').textContent()) ?? '').includes('New Terminal Output'), 'step #2 shows its observation');
    let t = await pageText(f);
    if (t.raw.length || !t.escaped) throw new Error(`bidi controls act on the page (${t.raw.length}): ${t.raw.slice(0, 4).join(' | ')}; escape shown: ${t.escaped}`);
    await ctx.shot('1-bidi');
    await f.locator('#raw-toggle').click();
    await ctx.until(async () => ((await f.locator('.detail pre.raw').textContent().catch(() => '')) ?? '').includes('"step_id"'), 'raw shows the step JSON');
    t = await pageText(f);
    if (t.raw.length) throw new Error(`bidi controls act on the raw JSON: ${t.raw.slice(0, 4).join(' | ')}`);
    await f.locator('#raw-toggle').click();
    await ctx.runCommand('View: Close All Editors');
    await page.waitForTimeout(300);

    // 2. Cut off mid-file: the error names the line and column, and the text read is shown below it.
    await quickOpen(ctx, 'trajectories/cut/agent/trajectory.json');
    const c = await ctx.webviewFrame('.banner.error');
    await ctx.until(async () => /not valid JSON/.test((await c.locator('.banner.error').textContent()) ?? ''), 'the banner says the file is not valid JSON');
    await ctx.until(async () => ((await c.locator('.raw-view pre.raw').textContent().catch(() => '')) ?? '').startsWith('{\n  "schema_version"'),
      'the text of the cut-off file is shown below the problems', 15_000);
    await ctx.shot('2-cut-off');
    await ctx.runCommand('View: Close All Editors');
    await page.waitForTimeout(300);
  },
};
