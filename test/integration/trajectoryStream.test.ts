// A large trajectory in the real extension host: it is streamed (the first page shown while the rest is read), ends
// with every step listed and the "Reading…" banner gone, and a deep link to a step far beyond the first page selects
// it once it is read. The page's reports (onDidReceivePanelMessage) say what it shows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasDriver, screenshot, until, webview, workspaceRoot } from './helpers';
import { api } from './treeHelpers';
import { bigTrajectory } from '../../scripts/sample-runs/atifFeatures';
import type { TrajectoryWebviewMessage } from '../../src/protocol/trajectory';

type Rendered = Extract<TrajectoryWebviewMessage, { type: 'rendered' }>;
const STEPS = 2500;

suite('trajectory editor: a large trajectory, streamed', () => {
  const seen: { key: string; message: TrajectoryWebviewMessage }[] = [];
  let recorder: vscode.Disposable | undefined;
  let file: string;
  suiteSetup(async () => {
    const a = await api();
    recorder = a.onDidReceivePanelMessage((m) => { if (m.viewType.startsWith('harborRuns.trajectory')) seen.push({ key: m.key, message: m.message as TrajectoryWebviewMessage }); });
    file = path.join(workspaceRoot(), 'trajectories-stream', 'agent', 'trajectory.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(bigTrajectory(STEPS, 25 * 1024 * 1024)));
  });
  suiteTeardown(async () => {
    recorder?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const reports = () => seen.filter((m) => m.key === file).map((m) => m.message);
  const rendered = (pred: (m: Rendered) => boolean, message: string) => until(() => {
    const err = reports().find((m) => m.type === 'error' || m.type === 'cspViolation');
    if (err) throw new Error(`the webview reported ${JSON.stringify(err)}`);
    return reports().filter((m): m is Rendered => m.type === 'rendered').find(pred);
  }, { timeout: 120_000, message });

  test('a deep link to a step beyond the first page opens the trajectory there once that step is read; every step ends up listed', async function () {
    this.timeout(240_000);
    const link = `${vscode.env.uriScheme}://harbor-runs.harbor-runs/trajectory?file=${encodeURIComponent(file)}&step=${STEPS - 10}`;
    assert.equal(await vscode.commands.executeCommand('harborRuns.openLink', link), true);
    const first = await rendered(() => true, 'the page renders');
    await rendered((m) => m.rows === STEPS && m.selected === STEPS - 11, `step #${STEPS - 10} is selected once read`);
    const counts = reports().filter((m): m is Rendered => m.type === 'rendered').map((m) => m.rows);
    assert.ok(counts.every((n, i) => i === 0 || n >= counts[i - 1]), 'rows only grow');
    console.log(`    first report: ${first.rows} of ${STEPS} rows; reports: ${counts.length}`);
    const last = reports().filter((m): m is Rendered => m.type === 'rendered').pop()!;
    assert.ok(last.domNodes < 3000, `the DOM stays bounded: ${last.domNodes} nodes for ${STEPS} steps`);
    if (hasDriver()) {
      await until(async () => {
        const t = await webview('trajectory-stream-head', 'text', '.head-box');
        return t?.ok && !t.text?.includes('Reading…') && t.text?.includes(`steps${STEPS}`) ? t : undefined;
      }, { timeout: 60_000, message: 'the header says every step is read (no "Reading…")' });
      await screenshot('trajectory-stream-done');
    }
  });
});
