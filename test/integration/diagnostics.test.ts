// Missing paths flagged in the real workbench: a Problems entry on the summary at the exact JSON value of the missing
// path, a quick fix that rewrites the summary, and a decoration (badge + error colour) on the missing tree items.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, workspaceRoot } from './helpers';
import { api, child, runNodes, type HarborRunsApi, type TreeNode } from './treeHelpers';

const FLAG_SCHEME = 'harbor-runs-flag';

suite('missing paths: diagnostics and decorations', () => {
  let a: HarborRunsApi;
  let summary: string;
  suiteSetup(async () => {
    a = await api();
    const rollouts = path.join(workspaceRoot(), 'nemo-gym', 'tb-mini', 'rollouts.jsonl');
    summary = path.join(path.dirname(rollouts), 'rollouts_run_summary.json');
    const r = await vscode.commands.executeCommand<{ error?: string }>('harborRuns.writeRunSummary', vscode.Uri.file(rollouts));
    assert.equal(r?.error, undefined);
    await a.whenIdle();
  });

  test('a missing verifier folder is a Problems entry at its exact position in the summary', async () => {
    const doc = JSON.parse(fs.readFileSync(summary, 'utf8')) as { missing_paths: string[] };
    assert.ok(doc.missing_paths.length > 0, 'the example has a missing path');
    const uri = vscode.Uri.file(summary);
    const diag = await until(() => vscode.languages.getDiagnostics(uri).find((d) => d.source === 'harbor-runs' && d.code === 'missing-path'),
      { message: 'a missing-path diagnostic on the summary' });
    assert.equal(diag.severity, vscode.DiagnosticSeverity.Error);
    const text = (await vscode.workspace.openTextDocument(uri)).getText(diag.range);
    assert.equal(text, JSON.stringify(doc.missing_paths[0]), 'the range covers exactly the JSON value');
    assert.match(diag.message, new RegExp(doc.missing_paths[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diag.range);
    const fix = actions.find((x) => x.command?.command === 'harborRuns.writeRunSummary');
    assert.ok(fix, `a quick fix rewrites the summary (got ${actions.map((x) => x.title).join(', ')})`);
    assert.equal((fix.command?.arguments?.[0] as vscode.Uri).fsPath, path.join(path.dirname(summary), 'rollouts.jsonl'));
    if (hasDriver()) {
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      await screenshot('diagnostics-problems-panel');
    }
  });

  test('Harbor: a file missing from a trial is a Problems entry on the trial\'s result.json', async () => {
    const job = (await runNodes(a)).find((n) => n.kind === 'run' && n.run.kind === 'harbor-job');
    assert.ok(job && job.kind === 'run');
    const missing = job.run.problems.find((p) => p.code === 'missing-path' && !fs.existsSync(p.file) && p.file.startsWith(`${job.run.root}/`) && p.file.slice(job.run.root.length + 1).includes('/'));
    assert.ok(missing, 'the example job has a trial with a missing file');
    const trialDir = path.join(job.run.root, missing.file.slice(job.run.root.length + 1).split('/')[0]);
    const resultUri = vscode.Uri.file(path.join(trialDir, 'result.json'));
    const target = fs.existsSync(resultUri.fsPath) ? resultUri : vscode.Uri.file(trialDir);
    await until(() => vscode.languages.getDiagnostics(target).some((d) => d.source === 'harbor-runs' && d.message === missing.message),
      { message: `a diagnostic on ${target.fsPath}` });
    assert.equal(vscode.languages.getDiagnostics(vscode.Uri.file(missing.file)).length, 0, 'none on the file that is not there');
  });

  test('missing items carry a flag decoration: a missing attempt and a missing verifier folder', async () => {
    const run = (await runNodes(a)).find((n) => n.kind === 'run' && n.run.anchor === summary);
    assert.ok(run, 'the tb-mini run, read from its summary');
    const task = await child(a, run, 'long-build');
    const missingAttempt = (await a.getChildren(task)).find((n): n is TreeNode & { kind: 'attempt' } => n.kind === 'attempt' && n.attempt.outcome === 'missing');
    assert.ok(missingAttempt, 'long-build has a missing attempt');
    const item = a.getTreeItem(missingAttempt);
    assert.equal(item.resourceUri?.scheme, FLAG_SCHEME);
    const q = new URLSearchParams(item.resourceUri.query);
    assert.deepEqual({ b: q.get('b'), s: q.get('s') }, { b: '!', s: 'error' });
    assert.equal(item.command?.command, 'harborRuns.explainMissing');

    const fixPerm = await child(a, run, 'fix-permissions');
    const second = await child(a, fixPerm, '#2');
    const folder = (await a.getChildren(second)).find((n) => n.kind === 'evidence' && !n.evidence.present);
    assert.ok(folder, 'the missing verifier folder is listed');
    const fItem = a.getTreeItem(folder);
    assert.match(String(fItem.description), /^not on disk/);
    assert.equal(new URLSearchParams(fItem.resourceUri?.query ?? '').get('s'), 'error');
    const tItem = a.getTreeItem(fixPerm);
    assert.equal(new URLSearchParams(tItem.resourceUri?.query ?? '').get('s'), 'warning', 'the task shows it has a flagged attempt');
  });

  test('deleting a verifier folder turns it into a flag (watchers)', async () => {
    const run = (await runNodes(a)).find((n) => n.kind === 'run' && n.run.anchor === summary);
    assert.ok(run && run.kind === 'run');
    // The last intact attempt (the tree suite clicks through hello-world #1, which comes first).
    const victim = run.run.tasks.flatMap((t) => t.attempts.map((x) => ({ t, x }))).filter(({ x }) => x.dir && fs.existsSync(x.dir) && x.missing.length === 0).at(-1);
    assert.ok(victim?.x.dir);
    fs.rmSync(victim.x.dir, { recursive: true });
    await until(async () => {
      await a.whenIdle();
      const r = a.store.get(run.run.id);
      return r?.tasks.flatMap((t) => t.attempts).find((x) => x.id === victim.x.id)?.evidence.some((e) => !e.present);
    }, { message: 'the attempt shows missing evidence after its folder was deleted', timeout: 15_000 });
  });
});
