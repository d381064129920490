// A webview panel's handler that fails (here: the trajectory editor asked to open a problem of a file deleted since it
// was read, so VS Code cannot open the document) is caught: reported through onDidFailPanelMessage (logged with its
// stack, shown to the user with "Show Log") and told to the page, which says so at its top — no unhandled rejection.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, webview, workspaceRoot } from './helpers';
import { api } from './treeHelpers';
import type { PanelFailure, PanelMessage } from '../../src/vscode/panels/webviewPanels';

suite('webview panels: a handler that fails is reported and told to the page', () => {
  const seen: PanelMessage[] = [];
  const failures: PanelFailure[] = [];
  const subs: vscode.Disposable[] = [];
  suiteSetup(async () => {
    const a = await api();
    subs.push(a.onDidReceivePanelMessage((m) => seen.push(m)), a.onDidFailPanelMessage((f) => failures.push(f)));
  });
  suiteTeardown(async () => {
    for (const s of subs) s.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('trajectory editor: "open problem" on a file deleted meanwhile', async function () {
    const file = path.join(workspaceRoot(), 'panel-failure', 'gone', 'trajectory.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // ATIF-like (no schema_version): its problems are listed open at the top of the page.
    fs.writeFileSync(file, JSON.stringify({ agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'hi' }] }));
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), 'harborRuns.trajectory.any');
    await until(() => seen.some((m) => m.key === file && m.message.type === 'rendered'), { timeout: 30_000, message: 'the editor renders' });
    if (!hasDriver()) this.skip();
    fs.rmSync(file);
    const click = await webview('panel-failure-open-problem', 'click', '.problems a.ptr');
    assert.ok(click?.ok, click?.error);
    const f = await until(() => failures.find((x) => x.key === file), { timeout: 20_000, message: 'the failure is reported' });
    assert.equal(f.viewType, 'harborRuns.trajectory.any');
    assert.equal(f.request, 'openProblem');
    assert.ok(f.message.length > 0);
    const shown = await until(async () => {
      const t = await webview('panel-failure-banner', 'text', '#host-failure');
      return t?.ok && t.text ? t.text : undefined;
    }, { timeout: 20_000, message: 'the page says the host could not do it' });
    assert.match(shown, /^Could not open problem: .+ \(the Harbor Runs log has the details\)Dismiss$/);
    await screenshot('panel-failure');
  });
});
