// Restricted settings in an untrusted workspace (docs/untrusted-runs.md#globs, item 2): with the folder opened
// untrusted, its own .vscode/settings.json asks for `harborRuns.include: ["nothing-here/**"]`, `exclude: ["**"]` and
// `maxFolders: 1` — VS Code ignores them (restrictedConfigurations), so runs are still found. Opt-in: it needs the
// workbench started with workspace trust on (`HARBOR_RUNS_UNTRUSTED=1 node scripts/test-all.mjs --only=build,integration`);
// in the ordinary run it is skipped.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from './treeHelpers';

suite('untrusted workspace', () => {
  test('the workspace is not trusted; its include, exclude and maxFolders are ignored; runs are found', async function () {
    if (process.env.HARBOR_RUNS_UNTRUSTED !== '1') { this.skip(); return; }
    assert.equal(vscode.workspace.isTrusted, false, 'the folder opened in Restricted Mode');
    const c = vscode.workspace.getConfiguration('harborRuns');
    assert.deepEqual(c.get('include'), [], 'the workspace value of a restricted setting is not applied');
    assert.deepEqual(c.get('exclude'), ['**/node_modules/**', '**/.git/**']);
    assert.equal(c.get('maxFolders'), 50000);
    const a = await api();
    const runs = a.store.runs();
    assert.ok(runs.length >= 3, `runs are found despite the workspace's settings (${runs.length})`);
    assert.ok(runs.some((r) => r.kind === 'harbor-job') && runs.some((r) => r.kind === 'nemo-gym'));
  });
});
