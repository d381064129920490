// "Harbor: Open Run Overview" in the real workbench: the command opens one webview panel per run (opening it again
// reveals the same panel), the webview says `ready` and renders one grid row per task; through the driver's
// @@webview hook the grid's text is read and a cell is clicked, which reveals that attempt in the Runs tree and
// opens its test-stdout in a preview editor.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, webview } from './helpers';
import { api, type HarborRunsApi } from './treeHelpers';
import type { Run } from '../../src/core/model';
import { evidenceToOpen, overviewModel } from '../../src/views/runOverviewModel';
import { parseWebviewMessage, type WebviewMessage } from '../../src/protocol/runOverview';

interface OverviewState {
  open: { runId: string; title: string; visible: boolean; viewType: string }[];
  messages: { runId: string; message: WebviewMessage }[];
}

const VIEW_TYPE = 'harborRuns.runOverview';
/** Every message the overview panels received since the suite started (recorded through the host context's event). */
const seen: { runId: string; message: WebviewMessage }[] = [];

/** The open overviews and what they said, read from the API activate() returned. */
function overviewState(a: HarborRunsApi, runId?: string): OverviewState {
  return {
    open: a.openPanels(VIEW_TYPE).map((p) => ({ runId: p.key, title: p.title, visible: p.visible, viewType: p.viewType })),
    messages: seen.filter((e) => runId === undefined || e.runId === runId),
  };
}

suite('run overview webview', () => {
  let a: HarborRunsApi;
  let run: Run;
  let recorder: { dispose(): void } | undefined;
  suiteSetup(async () => {
    a = await api();
    recorder = a.onDidReceivePanelMessage((m) => {
      if (m.viewType === VIEW_TYPE) seen.push({ runId: m.key, message: m.message as WebviewMessage });
    });
    const r = a.store.runs().find((x) => x.kind === 'nemo-gym' && x.label.startsWith('tb-mini'));
    assert.ok(r, 'examples/ has the tb-mini run');
    run = r;
  });
  suiteTeardown(async () => {
    recorder?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('opens through the command, handshakes and renders one row per task', async () => {
    const id = await vscode.commands.executeCommand<string>('harborRuns.openRunOverview', run.id);
    assert.equal(id, run.id);
    const ready = await until(async () => {
      const s = overviewState(a, run.id);
      return s.messages.find((m) => m.message.type === 'ready');
    }, { timeout: 20_000, message: 'the webview posts ready' });
    assert.ok(parseWebviewMessage(ready.message).ok, 'the host recorded a valid ready message');
    const rendered = await until(async () => {
      const msgs = overviewState(a, run.id).messages.map((m) => m.message);
      const err = msgs.find((m) => m.type === 'error');
      if (err) throw new Error(`the webview reported: ${JSON.stringify(err)}`);
      return msgs.find((m) => m.type === 'rendered');
    }, { timeout: 20_000, message: 'the webview renders the init model' }).catch(async (e: Error) => {
      throw new Error(`${e.message}; messages: ${JSON.stringify(overviewState(a, run.id).messages).slice(0, 2000)}`);
    });
    assert.equal(rendered.type === 'rendered' && rendered.rows, run.tasks.length);
    assert.equal(rendered.type === 'rendered' && rendered.columns, Math.max(...run.tasks.map((t) => t.attempts.length)));
    const s = overviewState(a, run.id);
    assert.equal(s.open.filter((p) => p.runId === run.id).length, 1);
    assert.equal(s.open[0].title, `Overview: ${run.label}`);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.equal(tab?.label, `Overview: ${run.label}`);
    assert.ok(tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('harborRuns.runOverview'), 'the active tab is the overview webview');
    assert.equal(s.messages.some((m) => m.message.type === 'cspViolation'), false, 'no CSP violation reported by the page');

    // Opening it again reveals the same panel.
    await vscode.commands.executeCommand('harborRuns.openRunOverview', run.id);
    assert.equal(overviewState(a).open.filter((p) => p.runId === run.id).length, 1);
    if (hasDriver()) await screenshot('overview-opened');
  });

  test('clicking a cell reveals the attempt and opens its test-stdout', async function () {
    if (!hasDriver()) { this.skip(); return; }
    const task = run.tasks.find((t) => t.attempts.some((x) => evidenceToOpen(x)?.endsWith('test-stdout.txt')));
    assert.ok(task, 'tb-mini has an attempt with a test-stdout');
    const attempt = task.attempts.find((x) => evidenceToOpen(x)?.endsWith('test-stdout.txt'))!;
    const grid = await webview('overview-grid-text', 'text', '#grid tbody');
    assert.ok(grid?.ok, grid?.error);
    for (const t of run.tasks) assert.ok(grid.text?.includes(t.label || t.id), `the grid lists ${t.label}`);
    const shot = await webview('overview-grid', 'shot', '#app');
    assert.ok(shot?.ok, shot?.error);

    const css = `#grid button.cell[data-attempt-id="${attempt.id.replace(/["\\]/g, '\\$&')}"]`;
    const click = await webview('overview-click-cell', 'click', css);
    assert.ok(click?.ok, click?.error);
    const expected = evidenceToOpen(attempt)!;
    const editor = await until(() => {
      const e = vscode.window.activeTextEditor;
      return e && e.document.uri.fsPath === expected ? e : undefined;
    }, { timeout: 15_000, message: `the click opens ${expected}` });
    assert.equal(editor.document.uri.fsPath, expected);
    const msgs = overviewState(a, run.id).messages.map((m) => m.message);
    assert.ok(msgs.some((m) => m.type === 'openAttempt' && m.attemptId === attempt.id && m.taskId === task.id), 'the host got openAttempt for that cell');
    await until(() => a.treeView.selection.some((n) => n.kind === 'attempt' && n.attempt.id === attempt.id),
      { timeout: 10_000, message: 'the attempt is selected in the Runs tree' });
    await screenshot('overview-cell-opened');

    // A problem opens its file at its line.
    const problem = run.problems.find((p) => p.line !== undefined && fs.existsSync(p.file));
    if (problem) {
      const idx = run.problems.indexOf(problem);
      const pc = await webview('overview-click-problem', 'click', `button.problem[data-index="${idx}"]`);
      assert.ok(pc?.ok, pc?.error);
      const pe = await until(() => {
        const e = vscode.window.activeTextEditor;
        return e && e.document.uri.fsPath === problem.file ? e : undefined;
      }, { timeout: 15_000, message: `the problem opens ${problem.file}` });
      assert.equal(pe.selection.active.line, problem.line! - 1);
    }
  });

  test('viewer-data runs group the attempt columns by model|harness cell', async () => {
    const v = a.store.runs().filter((x) => x.kind === 'viewer-data').sort((x, y) => y.tasks.length - x.tasks.length)[0];
    assert.ok(v && v.tasks.length > 0, 'examples/ has a viewer-data run with tasks');
    const model = overviewModel(v);
    const groups = [...new Set(model.columns.map((c) => c.group))];
    assert.ok(groups.length >= 1 && groups.every((g) => typeof g === 'string'));
    await vscode.commands.executeCommand('harborRuns.openRunOverview', v.id);
    const rendered = await until(async () => overviewState(a, v.id).messages.map((m) => m.message).find((m) => m.type === 'rendered'),
      { timeout: 45_000, message: 'the viewer-data overview renders' }).catch((e: Error) => {
      throw new Error(`${e.message}; open: ${JSON.stringify(a.openPanels())}; messages: ${JSON.stringify(overviewState(a, v.id).messages).slice(0, 2000)}`);
    });
    assert.equal(rendered.type === 'rendered' && rendered.columns, model.columns.length);
    if (!hasDriver()) return;
    const head = await webview('overview-viewer-groups', 'text', '#grid thead tr.groups');
    assert.ok(head?.ok, head?.error);
    for (const g of groups) assert.ok(head.text?.includes(g!), `the header names the cell ${g}`);
    await webview('overview-viewer', 'shot', '#app:has(tr.groups)');
  });
});
