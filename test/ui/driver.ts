// What a UI scenario gets: the Playwright page on the real workbench (code-server + chromium) and helpers named after
// what a person does. A scenario is a module under test/ui/scenarios/ exporting `scenario: Scenario` (or default).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import * as wb from '../../.ci/vscode/workbench';

export interface UiContext {
  page: Page;
  /** The workspace folder the workbench has open (a temp copy of examples/). */
  workspace: string;
  /** The repo root (for reading the manifest, running the CLI …). */
  repo: string;
  /** Saves screenshots/ui/<scenario>-<step>.png and returns its path. */
  shot(step: string): Promise<string>;
  /** Clicks the "Harbor" activity-bar icon (unless its view is already shown), waits for the "Runs" view and its runs. */
  openHarborView(): Promise<void>;
  /** The first side-bar tree row whose text matches (string: case-insensitive substring; or a RegExp). */
  treeRow(label: string | RegExp): Locator;
  /** The first side-bar tree row whose label (not its description) is exactly `label`. */
  treeItem(label: string): Locator;
  /** The texts (aria-labels) of the side-bar tree rows now rendered. */
  treeRowTexts(): Promise<string[]>;
  /** Expands a row (a Locator, or a label as treeRow matches it; no-op when expanded) and waits until it is. */
  expand(target: string | RegExp | Locator): Promise<Locator>;
  /** Collapses a row (no-op when collapsed). */
  collapse(target: string | RegExp | Locator): Promise<Locator>;
  /** The visible webview's document that contains `selector`. */
  webviewFrame(selector: string): Promise<FrameLocator>;
  /** Opens the Problems panel. */
  openProblems(): Promise<void>;
  /** Runs a command from the palette by (part of) its title. */
  runCommand(title: string): Promise<void>;
  /** Waits until `fn` returns truthy (returns it) or throws after `timeout` ms. */
  until<T>(fn: () => T | Promise<T>, message: string, timeout?: number): Promise<NonNullable<T>>;
  log(msg: string): void;
}

export interface Scenario {
  name: string;
  run(ctx: UiContext): Promise<void>;
}

export const HARBOR_CONTAINER = 'Harbor';
export const RUNS_VIEW = 'Runs';

export function createContext(page: Page, scenario: string, workspace: string, repo: string, shotDir: string): UiContext {
  const until = async <T>(fn: () => T | Promise<T>, message: string, timeout = 20_000): Promise<NonNullable<T>> => {
    const deadline = Date.now() + timeout;
    let last: unknown;
    for (;;) {
      try {
        const v = await fn();
        if (v) return v as NonNullable<T>;
      } catch (e) { last = e; }
      if (Date.now() > deadline) throw new Error(`${message} (waited ${timeout} ms)${last instanceof Error ? `: ${last.message}` : ''}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  return {
    page, workspace, repo,
    async shot(step) {
      fs.mkdirSync(shotDir, { recursive: true });
      const file = path.join(shotDir, `${scenario}-${step}.png`.replace(/[^\w.-]/g, '_'));
      await page.screenshot({ path: file });
      return file;
    },
    async openHarborView() {
      await wb.openView(page, HARBOR_CONTAINER, RUNS_VIEW);
      // The first load lists runs as they are read ("Reading …" rows until then, rows moving as runs come in): a
      // scenario acts on the tree once every run is in.
      let last = '';
      await until(async () => {
        const texts = await wb.treeRowTexts(page);
        const now = texts.join('\n');
        const settled = texts.length > 0 && !texts.some((t) => /^Reading /.test(t)) && now === last;
        last = now;
        return settled;
      }, 'every run of the workspace is read (rows listed, none "Reading …", unchanged over two looks)', 60_000);
    },
    treeRow: (label) => wb.treeRow(page, label),
    treeRowTexts: () => wb.treeRowTexts(page),
    treeItem: (label) => wb.treeItem(page, label),
    expand: (target) => wb.expand(page, target),
    collapse: (target) => wb.collapse(page, target),
    webviewFrame: (selector) => wb.webviewFrame(page, selector),
    openProblems: () => wb.openProblems(page),
    runCommand: (title) => wb.runCommand(page, title),
    until,
    log: (msg) => console.log(`    [${scenario}] ${msg}`),
  };
}

/** Loads every scenario module next to this file's `scenarios/` folder (built: out/test/ui/scenarios/*.js). */
/** "Harbor: Open Run Overview" from the palette, then the run whose quick-pick row contains `text`. */
export async function openOverviewFromPalette(ctx: UiContext, text: string): Promise<void> {
  const { page } = ctx;
  await ctx.runCommand('Harbor: Open Run Overview');
  const pick = page.locator('.quick-input-widget input');
  await pick.waitFor({ state: 'visible', timeout: 10_000 });
  // Typed first: the pick lists every run, and the list only renders the rows in view.
  await pick.fill(text);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first().waitFor({ timeout: 15_000 });
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
}

/** Closes every editor. */
export async function closeEditors(ctx: UiContext): Promise<void> {
  await ctx.runCommand('View: Close All Editors');
  await ctx.page.waitForTimeout(300);
}

/** Leaves the Runs tree as the next scenario expects it: everything collapsed (a click in an overview reveals attempts). */
export async function collapseTree(ctx: UiContext): Promise<void> {
  const button = ctx.page.locator('.sidebar .actions-container a.action-label[aria-label^="Collapse All"]').first();
  await button.click({ timeout: 5000 }).catch(() => undefined);
  await ctx.page.waitForTimeout(300);
}

export function loadScenarios(dir: string): Scenario[] {
  if (!fs.existsSync(dir)) return [];
  const out: Scenario[] = [];
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.js')).sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(dir, f)) as Record<string, unknown>;
    const s = (mod.scenario ?? mod.default ?? mod) as Partial<Scenario>;
    if (typeof s.name === 'string' && typeof s.run === 'function') out.push(s as Scenario);
    else out.push({ name: f.replace(/\.js$/, ''), run: async () => { throw new Error(`${f} exports no { name, run }`); } });
  }
  return out;
}
