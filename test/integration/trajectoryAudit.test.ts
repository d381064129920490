// What else the trajectory editor promises, in the real workbench: a task's seed trajectory (beside instruction.md)
// is labelled as such; a long observation is cut with "Show all", which shows all of it; "Copy step as JSON" puts the
// step as written on the clipboard; an ATIF-like file (steps, no ATIF schema_version) shows its steps and says it is
// not ATIF; a file with nothing to show offers its raw text.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, webview, workspaceRoot } from './helpers';
import { api } from './treeHelpers';
import type { TrajectoryWebviewMessage } from '../../src/protocol/trajectory';

type Rendered = Extract<TrajectoryWebviewMessage, { type: 'rendered' }>;

suite('trajectory editor: labels, long text, copy, not ATIF', () => {
  const seen: { key: string; message: TrajectoryWebviewMessage }[] = [];
  let recorder: vscode.Disposable | undefined;
  let dir: string;
  const LONG = `${'line of build output\n'.repeat(400)}THE END`;
  suiteSetup(async () => {
    const a = await api();
    recorder = a.onDidReceivePanelMessage((m) => { if (m.viewType.startsWith('harborRuns.trajectory')) seen.push({ key: m.key, message: m.message as TrajectoryWebviewMessage }); });
    dir = path.join(workspaceRoot(), 'trajectories-audit');
    const put = (rel: string, v: unknown) => { fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true }); fs.writeFileSync(path.join(dir, rel), typeof v === 'string' ? v : JSON.stringify(v)); };
    put('tasks/hello/instruction.md', '# Say hello\n');
    put('tasks/hello/trajectory.json', { schema_version: 'ATIF-v1.5', agent: { name: 'seed', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'Say hello.' }] });
    put('long/agent/trajectory.json', { schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [
      { step_id: 1, source: 'agent', message: 'Building.', tool_calls: [{ tool_call_id: 'c1', function_name: 'bash', arguments: { cmd: 'make' } }],
        observation: { results: [{ source_call_id: 'c1', content: LONG }] }, metrics: { prompt_tokens: 5, completion_tokens: 1 } },
    ] });
    put('like/trajectory.json', { agent: { name: 'like', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'no schema_version here' }] });
    put('nothing/data.json', { hello: 'world' });
  });
  suiteTeardown(async () => {
    recorder?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const rendered = (file: string, pred: (m: Rendered) => boolean = () => true) => until(() => {
    const msgs = seen.filter((m) => m.key === file).map((m) => m.message);
    const err = msgs.find((m) => m.type === 'error' || m.type === 'cspViolation');
    if (err) throw new Error(`the webview reported ${JSON.stringify(err)}`);
    return msgs.filter((m): m is Rendered => m.type === 'rendered').find(pred);
  }, { timeout: 30_000, message: `the editor of ${file} renders` });
  const open = async (rel: string, viewType = 'harborRuns.trajectory') => {
    const file = path.join(dir, rel);
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), viewType);
    return file;
  };
  const text = async (name: string, css: string) => {
    const t = await webview(name, 'text', css);
    assert.ok(t?.ok, `${css}: ${t?.error}`);
    return t.text ?? '';
  };

  test('a task\'s seed trajectory is labelled task-level', async function () {
    const file = await open('tasks/hello/trajectory.json');
    await rendered(file, (m) => m.rows === 1);
    if (!hasDriver()) this.skip();
    assert.match(await text('trajectory-task-level', '.banner.task-level'), /Task-level trajectory: it seeds an agent/);
    await screenshot('trajectory-task-level');
  });

  test('a long observation is cut with "Show all", which shows all of it; Copy step as JSON copies the step as written', async function () {
    const file = await open('long/agent/trajectory.json');
    await rendered(file, (m) => m.selected === 0);
    if (!hasDriver()) this.skip();
    const cut = await text('trajectory-cut', '.detail .tool-call .result .long');
    assert.match(cut, /Showing 4,000 of 8,407 characters/);
    assert.ok(!cut.includes('THE END'), 'cut, and says so');
    assert.ok((await webview('trajectory-show-all', 'click', '.detail .tool-call .result .cut vscode-button'))?.ok);
    await until(async () => (await text('trajectory-shown', '.detail .tool-call .result .long')).includes('THE END'), { timeout: 10_000, message: '"Show all" shows the end' });
    await screenshot('trajectory-show-all');
    await vscode.env.clipboard.writeText('');
    assert.ok((await webview('trajectory-copy-step', 'click', '#copy-step'))?.ok);
    const copied = await until(async () => { const t = await vscode.env.clipboard.readText(); return t ? t : undefined; }, { timeout: 10_000, message: 'the step is on the clipboard' });
    const step = JSON.parse(copied) as { step_id: number; observation: { results: { content: string }[] } };
    assert.equal(step.step_id, 1);
    assert.equal(step.observation.results[0].content, LONG, 'the step as written, nothing cut');
  });

  test('ATIF-like: its steps are shown and it says it is not ATIF; a file with nothing to show offers its raw text', async function () {
    const like = await open('like/trajectory.json', 'harborRuns.trajectory.any');
    await rendered(like, (m) => m.rows === 1 && m.selected === 0);
    const nothing = await open('nothing/data.json', 'harborRuns.trajectory.any');
    await rendered(nothing, (m) => m.rows === 0);
    if (!hasDriver()) this.skip();
    await until(async () => (await webview('trajectory-raw-nothing', 'text', '.raw-view'))?.text?.includes('"hello"'), { timeout: 10_000, message: 'the raw text is shown' });
    assert.match(await text('trajectory-unrelated', '.not-atif'), /unrelated JSON/);
    await screenshot('trajectory-nothing-raw');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.match(await text('trajectory-like', '.not-atif'), /ATIF-like document without an ATIF schema_version/);
    assert.match(await text('trajectory-like-step', '.detail'), /no schema_version here/);
    await screenshot('trajectory-atif-like');
  });
});
