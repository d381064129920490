// The extension in a real workbench: it activates, registers every command its manifest contributes, runs in
// VS Code 1.139 (code-server), exports an API object, and its contributed views can be shown.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HarborRunsApi } from '../../src/extension';
import { EXTENSION_ID, activated, hasDriver, screenshot, ui, until } from './helpers';

interface Manifest {
  contributes?: { commands?: { command: string }[]; views?: Record<string, { id: string }[]> };
}

suite('activation', () => {
  test('runs in a real VS Code 1.139 workbench', () => {
    assert.match(vscode.version, /^1\.139\./);
  });

  test(`${EXTENSION_ID} activates`, async () => {
    const ext = await activated();
    assert.equal(ext.isActive, true);
    assert.equal(ext.id, EXTENSION_ID);
  });

  test('every contributed command is registered', async function () {
    const ext = await activated();
    const declared = ((ext.packageJSON as Manifest).contributes?.commands ?? []).map((c) => c.command);
    if (declared.length === 0) this.skip(); // the manifest contributes no command yet
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test("the extension host's log holds no error or warning raised in this extension's code", async function () {
    const userData = process.env.HARBOR_RUNS_USER_DATA;
    if (!userData) this.skip(); // run outside test/runIntegration.ts: the workbench's logs are not known
    const ext = await activated();
    await vscode.commands.executeCommand('harborRuns.runs.focus');
    const ours = ext.extensionUri.fsPath;
    const logs: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/exthost\.log$/i.test(e.name)) logs.push(p);
      }
    };
    walk(path.join(userData!, 'logs'));
    assert.ok(logs.length > 0, `no extension host log under ${userData}/logs`);
    // An `[error]` or `[warning]` entry and the stack lines under it; ours when a frame is in this extension's folder.
    // (VS Code 1.139 logs a PendingMigrationError there for every read of the global `navigator`, as zod's eval check
    // did: an error for an installed extension, a deprecation warning with its stack for one in development.)
    const failures: string[] = [];
    for (const file of logs) {
      const entries = fs.readFileSync(file, 'utf8').split(/\n(?=\d{4}-\d\d-\d\d )/);
      for (const entry of entries) {
        if (/^\S+ \S+ \[(error|warning)\]/.test(entry) && entry.includes(ours)) failures.push(entry.split('\n').slice(0, 4).join('\n'));
      }
    }
    assert.deepEqual(failures, [], `errors raised in ${ours}:\n${failures.join('\n---\n')}`);
  });

  test('activate() returns an API object', async () => {
    const ext = await activated();
    assert.equal(typeof ext.exports, 'object');
    assert.notEqual(ext.exports, null);
  });

  test('every contributed view can be shown', async function () {
    const ext = await activated();
    const views = Object.values((ext.packageJSON as Manifest).contributes?.views ?? {}).flat();
    if (views.length === 0) this.skip(); // the manifest contributes no view yet
    for (const v of views) await vscode.commands.executeCommand(`${v.id}.focus`);
    if (hasDriver()) {
      const file = await screenshot('activation-views');
      assert.ok(file && fs.statSync(file).size > 0, 'the screenshot was written');
    }
  });

  test('a real click on the Harbor activity-bar icon shows the Runs view', async function () {
    if (!hasDriver()) this.skip(); // needs the code-shim's Playwright driver
    const { treeView } = (await activated<HarborRunsApi>()).exports;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await until(() => !treeView.visible, { message: 'the Runs view stays visible after closing the side bar' });
    const r = await ui('activation-harbor-icon', 'click', '.activitybar .action-item a.action-label[aria-label^="Harbor"]');
    assert.equal(r?.ok, true, `the driver could not click the icon: ${r?.error}`);
    await until(() => treeView.visible, { message: 'the Runs view did not appear after the click' });
    const shot = await screenshot('activation-harbor-icon-clicked');
    assert.ok(shot && fs.statSync(shot).size > 0);
  });
});
