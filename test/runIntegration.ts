// Runs the integration tests (test/integration/**) inside a real VS Code extension host through
// @vscode/test-electron's runTests(), whose "VS Code executable" is .ci/vscode/code-shim.js (code-server + chromium).
// The workspace is a fresh temp copy of examples/ so tests may write into it; everything temp is removed afterwards.
// Prints the `@@counts {...}` line of the mocha runner (forwarded by the shim) for scripts/test-all.mjs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ensureTools, findRepoRoot } from '../.ci/vscode/tools';

async function main(): Promise<number> {
  const repo = findRepoRoot(__dirname);
  ensureTools(repo);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-it-'));
  const workspace = path.join(temp, 'workspace');
  const examples = path.join(repo, 'examples');
  if (fs.existsSync(examples)) fs.cpSync(examples, workspace, { recursive: true });
  else fs.mkdirSync(workspace, { recursive: true });
  // HARBOR_RUNS_UNTRUSTED=1 (opt-in, not part of npm test): the workspace opens untrusted and its own settings try to
  // narrow discovery to nothing; only the untrusted-workspace suite runs (test/integration/untrustedWorkspace.test.ts).
  const untrusted = process.env.HARBOR_RUNS_UNTRUSTED === '1';
  if (untrusted) {
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({
      'harborRuns.include': ['nothing-here/**'], 'harborRuns.exclude': ['**'], 'harborRuns.maxFolders': 1,
    }, null, 2));
    process.env.HARBOR_RUNS_GREP = 'untrusted workspace';
  }
  const shim = path.join(repo, '.ci', 'vscode', 'code-shim.js');
  fs.chmodSync(shim, 0o755); // a checkout without the exec bit must still work
  try {
    await runTests({
      vscodeExecutablePath: shim,
      extensionDevelopmentPath: repo,
      extensionTestsPath: path.join(repo, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [workspace, `--user-data-dir=${path.join(temp, 'user-data')}`, `--extensions-dir=${path.join(temp, 'extensions')}`],
      extensionTestsEnv: { HARBOR_RUNS_WORKSPACE: workspace, HARBOR_RUNS_REPO: repo, HARBOR_RUNS_USER_DATA: path.join(temp, 'user-data') },
    });
    return 0;
  } catch (e) {
    console.error(`integration tests failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (e) => { console.error(e); process.exit(1); });
