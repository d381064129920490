// Shared helpers for integration tests running inside the real extension host (see .ci/vscode/code-shim.js).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'harbor-runs.harbor-runs';

/** The extension, activated. Throws when it is not installed or activation fails. */
export async function activated<T = unknown>(): Promise<vscode.Extension<T>> {
  const ext = vscode.extensions.getExtension<T>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed`);
  if (!ext.isActive) await ext.activate();
  return ext;
}

/** The folder the tests run on (a temp copy of examples/). */
export function workspaceRoot(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder is open');
  return f.uri.fsPath;
}

export { until, type UntilOptions } from '../support/until';
import { until } from '../support/until';

/** True when a driver (the code-shim) is there to act on @@ hooks. */
export function hasDriver(): boolean {
  return !!process.env.HARBOR_RUNS_HOOK_DIR;
}

export interface HookResult { ok: boolean; file?: string; text?: string; error?: string }

async function hook(kind: 'screenshot' | 'webview' | 'ui', name: string, rest = '', timeout = 30_000): Promise<HookResult | undefined> {
  const dir = process.env.HARBOR_RUNS_HOOK_DIR;
  if (!dir) return undefined;
  const safe = name.replace(/[^\w.-]/g, '_');
  const marker = path.join(dir, `${kind}-${safe}.json`);
  fs.rmSync(marker, { force: true });
  console.log(`@@${kind} ${safe}${rest ? ` ${rest}` : ''}`);
  const text = await until(() => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''), {
    timeout, interval: 100, message: `the driver did not answer @@${kind} ${safe}`,
  });
  return JSON.parse(text) as HookResult;
}

/**
 * Asks the driver for a screenshot of the whole workbench, saved as screenshots/integration/<name>.png.
 * Returns the file, or undefined when no driver is attached (e.g. a desktop VS Code run).
 */
export async function screenshot(name: string): Promise<string | undefined> {
  const r = await hook('screenshot', name);
  if (r && !r.ok) throw new Error(`screenshot ${name} failed: ${r.error}`);
  return r?.file;
}

/** A real click / text read / element screenshot inside the visible webview that contains `css`. */
export async function webview(name: string, action: 'click' | 'text' | 'shot', css: string): Promise<HookResult | undefined> {
  return hook('webview', name, `${action} ${css}`);
}

/** A real click / text read / element screenshot on the workbench page (CSS selector). */
export async function ui(name: string, action: 'click' | 'text' | 'shot', css: string): Promise<HookResult | undefined> {
  return hook('ui', name, `${action} ${css}`);
}
