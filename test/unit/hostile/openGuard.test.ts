// Item 4 in the host (docs/untrusted-runs.md#paths-that-leave-the-run): a path a run names that leaves its folder — by
// its text (`../../x`, `/etc/passwd`) or as a link resolving outside — is contained before anything opens it
// (core/containment.ts), and the Runs tree shows it as refused with the reason, with a click that explains instead of
// opening. The workbench side (clicks, overview) is in test/integration/untrusted.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { containment } from '../../../src/core/containment';
import { writeRunSummary } from '../../../src/core/summary';
import { readRunSummary } from '../../../src/core/readers/runSummary';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { type TreeNode, childrenOf, makeRunNode, refusalOf } from '../../../src/views/tree/nodes';
import { describe } from '../../../src/views/tree/describe';
import { tooltipOf } from '../../../src/views/tree/tooltips';
import { defaultViewState } from '../../../src/views/tree/viewState';
import { generateHostileWorkspace, SECRET_TEXT } from '../../../scripts/sample-runs/hostileWorkspace';
import { setJsonValue } from '../../../scripts/sample-runs/hostile';
import { tempDir } from './helpers';

const nfs = new NodeFs();
const ctx = { state: defaultViewState(), listDir: (p: string) => nfs.readDir(p) };

async function walk(n: TreeNode, out: TreeNode[] = []): Promise<TreeNode[]> {
  out.push(n);
  for (const k of await childrenOf(n, ctx)) await walk(k, out);
  return out;
}

test('containment: by text, then by real path where the FsPort resolves links; says when it could only check the text', async () => {
  const w = await generateHostileWorkspace(tempDir('ws-'), tempDir('outside-'));
  const linked = await containment(nfs, w.jobDir, w.linkedStdout);
  assert.equal(linked.inside, false);
  assert.equal(!linked.inside && linked.reason, `${w.linkedStdout} is a link to ${fs.realpathSync(w.secret)}, outside the run's folder ${w.jobDir}`);
  const up = await containment(nfs, w.jobDir, `${w.jobDir}/../../secret.txt`);
  assert.equal(up.inside, false);
  assert.match(!up.inside ? up.reason : '', /is outside the run's folder/);
  assert.equal((await containment(nfs, w.jobDir, '/etc/passwd')).inside, false);
  const plain = path.join(w.jobDir, 'config.json');
  assert.deepEqual(await containment(nfs, w.jobDir, plain), { inside: true, checked: 'real' });
  assert.deepEqual(await containment(nfs, w.jobDir, `${w.jobDir}/gone.txt`), { inside: true, checked: 'real' }, 'nothing there: nothing to open');
  // The job reached through the workspace's `latest` link: its real files are still its own.
  assert.deepEqual(await containment(nfs, path.join(w.dir, 'jobs', 'latest'), path.join(w.dir, 'jobs', 'latest', 'config.json')), { inside: true, checked: 'real' });
  // A file system that cannot resolve links (a remote one): the text only, and it says so.
  const noReal: FsPort = Object.create(nfs, { realpath: { value: undefined } }) as FsPort;
  assert.deepEqual(await containment(noReal, w.jobDir, w.linkedStdout), { inside: true, checked: 'text' });
});

test('Runs tree: evidence a summary names outside the run is refused (not "missing"), with the reason; a click explains', async () => {
  const w = await generateHostileWorkspace(tempDir('ws-'), tempDir('outside-'));
  const written = await writeRunSummary(nfs, w.rollouts);
  assert.ok(!written.error, written.error);
  const doc = JSON.parse(fs.readFileSync(written.path, 'utf8')) as { tasks: { repeats: unknown[] }[] };
  const ti = doc.tasks.findIndex((t) => t.repeats.length > 0);
  const rel = path.relative(path.dirname(written.path), w.secret);
  setJsonValue(written.path, ['tasks', ti, 'repeats', 0, 'test_stdout'], rel);
  const run = await readRunSummary(nfs, written.path);
  const nodes = await walk(makeRunNode(run));
  const refused = nodes.filter((n) => refusalOf(n) !== undefined);
  assert.equal(refused.length, 1, refused.map((n) => n.id).join('\n'));
  const spec = describe(refused[0]);
  assert.equal(spec.description, 'refused: outside the run');
  assert.equal(spec.click, 'explain-refused');
  assert.equal(spec.collapsible, 'none');
  assert.match(spec.flag?.reason ?? '', /^not opened: .*secret\.txt is outside the run's folder /);
  assert.match(tooltipOf(refused[0]) ?? '', /\*\*Not opened:\*\* .*secret\\\.txt is outside the run\\'s folder/);
  // Not counted as missing on its attempt, and nothing of the file is anywhere in the model.
  const attempt = refused[0].parent!;
  assert.equal(attempt.kind, 'attempt');
  assert.ok(!describe(attempt).flag || !/missing/.test(describe(attempt).flag!.reason), describe(attempt).flag?.reason);
  assert.ok(!JSON.stringify(run).includes(SECRET_TEXT));
});

test('Runs tree: a node marked refused (a link found outside when its parent expanded) never gets the open click', async () => {
  const w = await generateHostileWorkspace(tempDir('ws-'), tempDir('outside-'));
  const run = await readHarborJob(nfs, w.jobDir);
  const nodes = await walk(makeRunNode(run));
  const stdout = nodes.find((n) => n.kind === 'evidence' && n.evidence.path === w.linkedStdout);
  assert.ok(stdout && stdout.kind === 'evidence');
  assert.equal(describe(stdout).click, 'open', 'the reader sees a file inside the run (its text is inside)');
  const c = await containment(nfs, run.root, stdout.evidence.path);
  assert.equal(c.inside, false);
  stdout.refused = !c.inside ? c.reason : undefined;
  assert.equal(describe(stdout).click, 'explain-refused');
  assert.equal(describe(stdout).path, w.linkedStdout, 'its path stays known (Copy Path)');
});
