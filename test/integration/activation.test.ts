// The extension in a real workbench: it activates, registers every command its manifest contributes, runs in
// VS Code 1.139 (code-server), exports an API object, and its contributed views can be shown.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
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
