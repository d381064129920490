// The trajectory editor's queries (core/trajectory/session.ts) answered on this thread and through the worker
// thread (out/trajectoryWorker.js via remote.ts) are the same, nested subagents included; the worker reads the file
// itself, a query it does not know is refused, and a closed worker refuses further queries.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { continuedTrajectory, featureTrajectory, subagentTrajectory, type FolderFiles } from '../../../scripts/sample-runs/atifFeatures';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { TrajectorySession } from '../../../src/core/trajectory/session';
import { DeferredTrajectory, LocalTrajectory, RemoteTrajectory, type TrajectorySource } from '../../../src/core/trajectory/remote';

const WORKER = path.resolve(__dirname, '../../../trajectoryWorker.js');
const real = (p: string): string | null => { try { return fs.realpathSync.native(p); } catch { return null; } };

function folder(files: FolderFiles): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'traj-session-'));
  for (const [rel, v] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), v instanceof Uint8Array ? v : JSON.stringify(v));
  }
  return d;
}

/** Every answer a source gives about the top trajectory and each resolved subagent (one level down). */
async function answers(src: TrajectorySource): Promise<unknown[]> {
  const out: unknown[] = [];
  const visit = async (at: number[]) => {
    const o = await src.ask('outline', at);
    out.push(o, await src.ask('header', at), await src.ask('outline', at, 2), await src.ask('rows', at, 1, 2));
    if (!o) return;
    for (let i = 0; i < o.rows.length; i++) out.push(await src.ask('step', at, i), await src.ask('raw', at, i));
    out.push(await src.ask('raw', at, null), await src.ask('step', at, o.rows.length));
    for (const q of ['make', 'ERROR', 'zzz-none', '']) { const r = await src.ask('search', at, q); out.push({ ...r, ms: 0 }); }
    for (let i = 0; i < o.header.problems.length; i++) out.push(await src.ask('problem', at, i));
    for (let i = 0; i < o.header.subagents.length; i++) {
      const sub = await src.ask('subagent', at, i);
      out.push(sub);
      if (sub?.hasView && at.length === 0) await visit([...at, i]);
    }
  };
  await visit([]);
  return out;
}

for (const [name, files] of [['continued', continuedTrajectory().files], ['subagents', subagentTrajectory().files], ['features', featureTrajectory()]] as const) {
  test(`${name}: the worker answers every query as the session does on this thread`, async () => {
    const d = folder(files);
    const file = path.join(d, 'trajectory.json');
    const remote = await RemoteTrajectory.open(WORKER, file, d);
    try {
      await remote.done;
      const local = new LocalTrajectory(await TrajectorySession.open(new NodeFs(), file, d, { real }), 0);
      assert.equal(remote.status.steps, local.status.steps);
      assert.ok(remote.status.steps > 0);
      const [a, b] = [await answers(remote), await answers(local)];
      assert.deepEqual(a, b);
      assert.ok(a.length > 10);
    } finally {
      remote.dispose();
      fs.rmSync(d, { recursive: true, force: true });
    }
  });
}

test('the subagents trajectory opens nested views through the worker; media stay inside the folder', async () => {
  const d = folder(subagentTrajectory().files);
  const remote = await RemoteTrajectory.open(WORKER, path.join(d, 'trajectory.json'), d);
  try {
    const top = (await remote.ask('outline', []))!;
    const nested = top.header.subagents.map((s, i) => ({ s, i })).filter(({ s }) => s.path !== null);
    assert.ok(nested.length >= 2, 'resolved subagents');
    const inner = await remote.ask('outline', [nested[0].i]);
    assert.ok(inner && inner.rows.length === nested[0].s.steps);
    assert.equal(await remote.ask('outline', [999]), null);
    const f = folder(featureTrajectory());
    const feat = await RemoteTrajectory.open(WORKER, path.join(f, 'trajectory.json'), f);
    try {
      const step = (await feat.ask('step', [], 0))!;
      const media = Object.values(step.media);
      assert.ok(media.some((p) => p === path.join(f, 'images', 'shot.png')), JSON.stringify(step.media));
      for (const p of media) assert.ok(p === null || p.startsWith(`${f}/`));
      assert.ok((await feat.ask('step', [], 1))!.tokens!.logprobs.length === 4);
    } finally {
      feat.dispose();
      fs.rmSync(f, { recursive: true, force: true });
    }
  } finally {
    remote.dispose();
    fs.rmSync(d, { recursive: true, force: true });
  }
});

test('an unknown query is refused; a closed worker refuses queries; a missing file reads as unreadable', async () => {
  const d = folder({});
  const remote = await RemoteTrajectory.open(WORKER, path.join(d, 'trajectory.json'), d);
  try {
    await remote.done;
    assert.equal(remote.status.steps, 0);
    const o = (await remote.ask('outline', []))!;
    assert.ok(o.header.unreadable, 'the header says why');
    await assert.rejects(remote.ask('constructor' as 'outline', []), /unknown query/);
  } finally {
    remote.dispose();
    fs.rmSync(d, { recursive: true, force: true });
  }
  await assert.rejects(remote.ask('outline', []), /closed/);
  await assert.rejects(RemoteTrajectory.open(path.join(d, 'no-worker.js'), '/x.json', '/'));
});

test('media behind a symbolic link that leaves the trajectory\'s folder is refused, with why; a missing file says so', async () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'traj-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.png'), 'x');
  const d = folder({
    'trajectory.json': { schema_version: 'ATIF-v1.8', agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'user', message: [
      { type: 'image', source: { media_type: 'image/png', path: 'images/ok.png' } },
      { type: 'image', source: { media_type: 'image/png', path: 'images/link.png' } },
      { type: 'audio', source: { media_type: 'audio/wav', path: 'audio/gone.wav' } },
      { type: 'audio', source: { media_type: 'audio/wav', path: `${outside}/secret.png` } },
    ] }] },
    'images/ok.png': new Uint8Array(4),
  });
  fs.symlinkSync(path.join(outside, 'secret.png'), path.join(d, 'images', 'link.png'));
  const remote = await RemoteTrajectory.open(WORKER, path.join(d, 'trajectory.json'), d);
  try {
    const step = (await remote.ask('step', [], 0))!;
    assert.deepEqual(step.media, { m0: path.join(d, 'images', 'ok.png'), m1: null, m2: null, m3: null });
    assert.match(step.refused.m1, /link to a file outside the trajectory's folder: refused/);
    assert.match(step.refused.m2, /does not exist/);
    assert.match(step.refused.m3, /outside the trajectory's folder: refused/);
    assert.equal(step.refused.m0, undefined);
  } finally {
    remote.dispose();
    fs.rmSync(d, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});

test('a deferred source answers queries asked while the worker is still starting, and closes a worker that opens after it was closed', async () => {
  const d = folder(continuedTrajectory().files);
  const file = path.join(d, 'trajectory.json');
  const early = new DeferredTrajectory(RemoteTrajectory.open(WORKER, file, d));
  try {
    assert.notEqual(early.status.loading, null, 'reading, as far as the editor can tell');
    const o = await early.ask('outline', []);
    assert.ok(o && o.rows.length > 0 && o.total === o.rows.length);
    await early.done;
    assert.equal(early.status.loading, null);
    assert.equal(early.status.steps, continuedTrajectory().expect.steps);
  } finally { early.dispose(); }
  let opened: RemoteTrajectory | undefined;
  const closed = new DeferredTrajectory(RemoteTrajectory.open(WORKER, file, d).then((r) => (opened = r)));
  closed.dispose();
  await closed.done;
  assert.ok(opened);
  await assert.rejects(opened.ask('outline', []), /closed/);
});
