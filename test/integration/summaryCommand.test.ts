// "Harbor: Write Run Summary" in the real workbench: on a NeMo Gym run that has no summary, it writes
// `<stem>_run_summary.json` beside the rollouts, and the tree then shows the run read from that file (once).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, workspaceRoot } from './helpers';
import { api, runNodes, type HarborRunsApi } from './treeHelpers';

interface WriteResult { path: string; error?: string; tasks: number; attempts: number; missingPaths: number; problems: number }

suite('write run summary command', () => {
  let a: HarborRunsApi;
  suiteSetup(async () => { a = await api(); });

  test('writes the summary of tb-smoke and the tree shows it', async () => {
    const rollouts = path.join(workspaceRoot(), 'nemo-gym', 'tb-smoke', 'smoke.jsonl');
    const summary = path.join(path.dirname(rollouts), 'smoke_run_summary.json');
    assert.ok(fs.existsSync(rollouts), 'the example rollouts file exists');
    fs.rmSync(summary, { force: true });
    await a.refresh();
    const virtual = a.store.runForFile(rollouts);
    assert.ok(virtual?.summaryIsVirtual, 'before: the run is read from its rollouts (no summary yet)');
    const nRuns = (await runNodes(a)).length;

    // The summary is written on a worker thread and the run shown from the file read back, its verifier folders
    // taken from the summary's own paths: the host lists none of the run's folders again (a fallback re-read would).
    const listed: string[] = [];
    const runDir = path.dirname(rollouts);
    const hostFsPort = (a as unknown as { fs: object }).fs; // the host context's file system (VscodeFs)
    const hostFs = hostFsPort as Record<string, unknown>;
    const own = { readDir: hostFs.readDir, listDirs: hostFs.listDirs };
    const ownProps = { readDir: Object.hasOwn(hostFs, 'readDir'), listDirs: Object.hasOwn(hostFs, 'listDirs') };
    hostFs.readDir = (p: string) => { if (p.startsWith(runDir)) listed.push(p); return (own.readDir as (p: string) => unknown).call(hostFsPort, p); };
    hostFs.listDirs = (ps: readonly string[]) => { listed.push(...ps.filter((p) => p.startsWith(runDir))); return (own.listDirs as (ps: readonly string[]) => unknown).call(hostFsPort, ps); };
    let result: WriteResult | undefined;
    try {
      result = await vscode.commands.executeCommand<WriteResult>('harborRuns.writeRunSummary', vscode.Uri.file(rollouts));
    } finally {
      for (const k of ['readDir', 'listDirs'] as const) {
        if (ownProps[k]) hostFs[k] = own[k]; else delete hostFs[k];
      }
    }
    assert.deepEqual(listed, [], 'no folder of the run is listed again by the host');
    assert.ok(result, 'the command returns what it wrote');
    assert.equal(result.error, undefined);
    assert.equal(result.path, summary);
    const doc = JSON.parse(fs.readFileSync(summary, 'utf8')) as { tasks?: unknown[]; files?: { rollouts?: unknown }; missing_paths?: unknown[] };
    // The answer is a few counts, not the document or its bytes (serialized for the caller, a big run's document
    // held the extension host for a minute): the counts are the document's.
    assert.ok(!('document' in result) && !('bytes' in result), 'no document or bytes in the answer');
    assert.ok(JSON.stringify(result).length < 1000, `a small answer: ${JSON.stringify(result).slice(0, 200)}`);
    assert.equal(result.tasks, doc.tasks?.length);
    assert.equal(result.missingPaths, doc.missing_paths?.length ?? 0);
    assert.ok(result.attempts >= result.tasks && result.attempts > 0, `attempts ${result.attempts}`);
    assert.equal(doc.files?.rollouts, 'smoke.jsonl', 'paths are relative to the summary');
    assert.ok(doc.tasks, 'the document lists the tasks');
    assert.equal(fs.readdirSync(path.dirname(summary)).filter((f) => f.endsWith('.tmp')).length, 0, 'no temp file left');

    await a.whenIdle();
    const run = await until(() => {
      const r = a.store.runForFile(summary);
      return r && !r.summaryIsVirtual ? r : undefined;
    }, { message: 'the store reads the written summary' });
    assert.equal(run.anchor, summary);
    const nodes = await runNodes(a);
    assert.equal(nodes.length, nRuns, 'the written summary replaces the virtual run, no duplicate');
    const node = nodes.find((n) => n.kind === 'run' && n.run.id === run.id);
    assert.ok(node, 'the run is in the tree');
    assert.match(a.getTreeItem(node).contextValue ?? '', /\+summary/);
    assert.doesNotMatch(String(a.getTreeItem(node).description), /no summary/);
    await until(() => a.treeView.selection.some((s) => s.id === node.id), { message: 'the run is revealed and selected', timeout: 5000 });
    if (hasDriver()) await screenshot('summary-command-revealed');
  });

  test('rows appended after the summary: the run says its summary is out of date; the quick fix brings it up to date', async () => {
    const rollouts = path.join(workspaceRoot(), 'nemo-gym', 'tb-smoke', 'smoke.jsonl');
    const summary = path.join(path.dirname(rollouts), 'smoke_run_summary.json');
    assert.ok(fs.existsSync(summary), 'written by the test before');
    // A row appended (the same row again: a retry of that repeat) a minute after the summary was written.
    const minuteAgo = Date.now() / 1000 - 60;
    fs.utimesSync(summary, minuteAgo, minuteAgo);
    const first = fs.readFileSync(rollouts, 'utf8').split('\n')[0];
    fs.appendFileSync(rollouts, `${first}\n`);
    const uri = vscode.Uri.file(summary);
    const diag = await until(async () => {
      await a.whenIdle();
      return vscode.languages.getDiagnostics(uri).find((d) => d.source === 'harbor-runs' && d.code === 'summary-outdated');
    }, { message: 'a summary-outdated diagnostic on the summary', timeout: 15_000 });
    assert.equal(diag.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(diag.range), '"smoke.jsonl"', 'at files.rollouts');
    const node = (await runNodes(a)).find((n) => n.kind === 'run' && n.run.anchor === summary);
    assert.ok(node);
    assert.match(String(a.getTreeItem(node).description), /summary out of date/);
    if (hasDriver()) {
      await vscode.window.showTextDocument(uri, { preview: true, selection: diag.range });
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      await screenshot('summary-outdated');
    }

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diag.range);
    const fix = actions.find((x) => x.command?.command === 'harborRuns.writeRunSummary');
    assert.ok(fix?.command, 'the quick fix rewrites the summary');
    const result = await vscode.commands.executeCommand<WriteResult>(fix.command.command, ...(fix.command.arguments ?? []));
    assert.equal(result?.error, undefined);
    await until(async () => {
      await a.whenIdle();
      const r = a.store.runForFile(summary);
      return r && !r.summaryOutdated && !vscode.languages.getDiagnostics(uri).some((d) => d.code === 'summary-outdated');
    }, { message: 'up to date after the rewrite', timeout: 15_000 });
  });

  test('a missing rollouts file is reported, not thrown', async () => {
    const missing = path.join(workspaceRoot(), 'nemo-gym', 'nowhere', 'none.jsonl');
    const result = await vscode.commands.executeCommand<WriteResult>('harborRuns.writeRunSummary', vscode.Uri.file(missing));
    assert.ok(result);
    // The writer never throws. A path where nothing of a run exists (a typo) is refused: an error, and nothing is
    // created there (a run whose sidecars exist without rollouts still gets the seed's "no rollouts" summary).
    assert.ok(result.error, 'a path with nothing of a run is refused');
    assert.ok(!fs.existsSync(path.dirname(missing)), 'no folder was created for the typo');
    fs.rmSync(path.dirname(missing), { recursive: true, force: true });
    await a.refresh();
  });
});
