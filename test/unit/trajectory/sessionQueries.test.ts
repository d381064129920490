// The trajectory editor's queries (core/trajectory/session.ts) on this thread, each checked against the trajectory as
// written: outline slices and their totals, steps of the first file and of a continuation, a step's and the
// document's JSON, nested subagents by path, problems, per-token logprobs, searches (with how long they took), media
// refused through `real`, and what a session says while it is read. trajectory/session compares the worker's
// answers with these (both run the same code, so it cannot tell a wrong answer given twice); here they are checked.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { bigTrajectory, continuedTrajectory, featureTrajectory, subagentTrajectory } from '../../../scripts/sample-runs/atifFeatures';
import type { TrajectoryFs } from '../../../src/core/trajectory/read';
import { TrajectorySession } from '../../../src/core/trajectory/session';
import { chunkedFs, memFolder } from './helpers';

const DIR = '/runs/job/trial/agent';
const FILE = `${DIR}/trajectory.json`;
const open = (files: Parameters<typeof memFolder>[0], opts?: Parameters<typeof TrajectorySession.open>[3]) =>
  TrajectorySession.open(memFolder(files, DIR), FILE, DIR, opts);
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

test('outline, rows and header: slices of the whole timeline, totals, nothing loading once open', async () => {
  const { files, expect } = continuedTrajectory();
  const s = await open(files);
  assert.equal(s.loading, null);
  const o = s.outline([])!;
  assert.equal(o.total, expect.steps);
  assert.equal(o.rows.length, expect.steps);
  assert.equal(o.loading, null);
  assert.deepEqual(o.header, s.header([])!.header);
  assert.deepEqual(s.header([]), { header: o.header, total: expect.steps, loading: null });
  assert.deepEqual(s.outline([], 2)!.rows, o.rows.slice(0, 2));
  assert.deepEqual(s.rows([], 1, 2), { rows: o.rows.slice(1, 3), total: expect.steps, loading: null });
  assert.deepEqual(s.rows([], 4), { rows: o.rows.slice(4), total: expect.steps, loading: null });
  // No subagent 0 here: every query about it answers null (search: nothing found).
  for (const q of [s.outline([0]), s.rows([0], 0), s.header([0]), s.step([0], 0), s.raw([0], 0), s.raw([0], null), s.subagent([0], 0), s.problem([0], 0)]) assert.equal(q, null);
  assert.deepEqual({ ...s.search([0], 'build'), ms: 0 }, { query: 'build', total: 0, steps: [], ms: 0, partial: false });
});

test('a step by index (out of range: null); its JSON as written, from the file it comes from; the whole document', async () => {
  const { files } = continuedTrajectory();
  const [main, cont] = [files['trajectory.json'], files['trajectory.cont-1.json']] as { steps: unknown[] }[];
  const s = await open(files);
  const n = s.view.steps.length;
  for (let i = 0; i < n; i++) assert.equal(s.step([], i)!.step.index, i);
  assert.equal(s.step([], n), null);
  assert.equal(s.step([], -1), null);
  assert.equal(s.raw([], 0), pretty(main.steps[0]));
  assert.equal(s.raw([], 2), pretty(main.steps[2]));
  // The continuation's steps come from trajectory.cont-1.json (their pointers are into that file).
  const last = s.view.steps[n - 1];
  assert.equal(s.raw([], n - 1), pretty(cont.steps[Number(last.pointer.split('/').pop())]));
  assert.match(s.raw([], n - 1)!, /Done\./);
  assert.equal(s.raw([], n), null);
  assert.equal(s.raw([], null), pretty(main));
});

test('an unreadable trajectory: the document\'s raw view is its text as read, or says why when nothing was read', async () => {
  const s = await open({ 'trajectory.json': '{ not json' });
  assert.equal(s.view.steps.length, 0);
  assert.ok(s.view.unreadable);
  assert.equal(s.raw([], null), '{ not json');
  const gone = await TrajectorySession.open(memFolder({}, DIR), FILE, DIR);
  assert.ok(gone.view.unreadable);
  assert.equal(gone.raw([], null), `(${gone.view.unreadable})`);
  const empty = await open({ 'trajectory.json': '' });
  assert.ok(empty.view.unreadable);
  assert.equal(empty.raw([], null), `(${empty.view.unreadable})`);
});

test('a trajectory cut off inside its steps (a trial killed mid-write): the raw view is the text, not a parse error thrown', async () => {
  const whole = JSON.stringify(featureTrajectory()['trajectory.json'], null, 2);
  const cut = whole.slice(0, Math.floor(whole.length * 0.6));
  for (const fs of [memFolder({ 'trajectory.json': cut }, DIR), chunkedFs(memFolder({ 'trajectory.json': cut }, DIR), 64)]) {
    const s = await TrajectorySession.open(fs, FILE, DIR);
    assert.match(s.view.unreadable ?? '', /^not valid JSON at line \d+, column \d+: /);
    assert.equal(s.view.steps.length, 0);
    assert.equal(s.raw([], null), cut);
    assert.equal(s.raw([], 0), null);
  }
  // A read that fails after the steps began keeps nothing of them: the raw view says why.
  const failing = await TrajectorySession.open(chunkedFs(memFolder({ 'trajectory.json': whole }, DIR), 64, 512), FILE, DIR);
  assert.equal(failing.view.unreadable, 'cannot be read: boom');
  assert.equal(failing.raw([], null), '(cannot be read: boom)');
});

test('subagents by path: what each resolved to, nested outlines and steps, the JSON of an embedded one', async () => {
  const { files } = subagentTrajectory();
  const s = await open(files);
  const subs = s.view.subagents;
  assert.ok(subs.length >= 3);
  for (let i = 0; i < subs.length; i++) {
    const sub = subs[i];
    assert.deepEqual(s.subagent([], i), { kind: sub.kind, ref: sub.ref, path: sub.path, agent: sub.agent, unresolved: sub.unresolved, hasView: sub.view !== null });
  }
  assert.equal(s.subagent([], subs.length), null);
  const fileSub = subs.findIndex((x) => x.kind === 'path' && x.view);
  const embedded = subs.findIndex((x) => x.kind === 'id' && x.view);
  const legacy = subs.findIndex((x) => x.view === null);
  assert.ok(fileSub >= 0 && embedded >= 0 && legacy >= 0);
  assert.equal(s.subagent([], legacy)!.hasView, false);
  assert.equal(s.subagent([], fileSub)!.hasView, true);
  assert.equal(s.outline([legacy]), null);
  const inner = s.outline([fileSub])!;
  assert.equal(inner.total, 2);
  assert.equal(inner.loading, null, 'a subagent is never "loading"');
  assert.match(s.step([fileSub], 1)!.step.summary, /Summary by file-sub/);
  assert.match(s.raw([fileSub], 1)!, /Summary by file-sub/);
  assert.match(s.raw([fileSub], null)!, /"trajectory_id": "file-sub"/);
  assert.match(s.raw([embedded], 0)!, /Summarize \(embedded-1\)/);
  const whole = JSON.parse(s.raw([embedded], null)!);
  assert.equal(whole.trajectory_id, 'embedded-1');
  assert.equal(s.outline([fileSub, 0]), null);
  assert.equal(s.outline([legacy, 0]), null, 'below a subagent without a view: nothing');
  assert.equal(s.outline([99, 0, 1]), null);
});

test('problems by index: the file and the JSON pointer', async () => {
  const doc = { schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'hi' }, { step_id: 'two', source: 'nobody', message: 3 }] };
  const s = await open({ 'trajectory.json': doc });
  const ps = s.view.problems;
  assert.ok(ps.length >= 1);
  for (let i = 0; i < ps.length; i++) assert.deepEqual(s.problem([], i), { file: ps[i].file, pointer: ps[i].pointer });
  assert.ok(ps.some((p) => p.file === FILE && p.pointer.startsWith('/steps/1')));
  assert.equal(s.problem([], ps.length), null);
});

test('per-token logprobs of a step: finite numbers kept, token ids that are not numbers read -1; none without logprobs', async () => {
  const feat = await open(featureTrajectory());
  assert.deepEqual(feat.step([], 1)!.tokens, { ids: [1000, 1001, 1002, 1003], logprobs: [-0.01, -0.3, -2.5, -0.0001] });
  assert.equal(feat.step([], 0)!.tokens, null);
  assert.equal(feat.step([], 3)!.tokens, null);
  const doc = { schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [
    { step_id: 1, source: 'agent', message: 'x', metrics: { prompt_tokens: 1, completion_tokens: 4, logprobs: [-0.5, 'x', null, -1.5, -0.25], completion_token_ids: [7, 'eight', null, 9] } },
    { step_id: 2, source: 'agent', message: 'y', metrics: { prompt_tokens: 1, completion_tokens: 2, logprobs: [-0.5, -0.1] } },
  ] };
  const s = await open({ 'trajectory.json': doc });
  assert.ok(s.view.steps[0].logprobs, 'a step with logprobs');
  assert.deepEqual(s.step([], 0)!.tokens, { ids: [7, -1, -1, 9], logprobs: [-0.5, -1.5, -0.25] });
  assert.deepEqual(s.step([], 1)!.tokens, { ids: null, logprobs: [-0.5, -0.1] });
  // Logprobs that are no numbers at all, or none: no per-token view; a number too large for a double is not finite.
  const text = `{"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1"}, "steps": [
    {"step_id": 1, "source": "agent", "message": "x", "metrics": {"logprobs": ["x", null], "completion_token_ids": [1, 2]}},
    {"step_id": 2, "source": "agent", "message": "y", "metrics": {"logprobs": [], "completion_token_ids": []}},
    {"step_id": 3, "source": "agent", "message": "z", "metrics": {"logprobs": [-0.5, -1e999, 1e999, -0.25], "completion_token_ids": [1, 2, 3, 4]}}]}`;
  const odd = await open({ 'trajectory.json': text });
  assert.equal(odd.step([], 0)!.tokens, null);
  assert.equal(odd.step([], 1)!.tokens, null);
  assert.deepEqual(odd.step([], 2)!.tokens, { ids: [1, 2, 3, 4], logprobs: [-0.5, -0.25] });
});

test('media of a step: paths inside the folder; through `real`, a link out of it is refused', async () => {
  const files = featureTrajectory();
  const plain = await open(files);
  const m = plain.step([], 0)!;
  assert.equal(m.media.m1, `${DIR}/images/shot.png`);
  const linked = await open(files, { real: (p) => (p.endsWith('shot.png') ? '/elsewhere/shot.png' : p) });
  const r = linked.step([], 0)!;
  assert.equal(r.media.m1, null);
  assert.match(r.refused.m1, /link to a file outside the trajectory's folder: refused/);
});

test('search: hits by step, case-insensitive; what it found in a subagent; how long it took', async () => {
  const s = await open(continuedTrajectory().files);
  const before = performance.now();
  const r = s.search([], 'MAKE');
  const took = performance.now() - before;
  assert.equal(r.query, 'MAKE');
  assert.equal(r.partial, false);
  assert.ok(r.total >= 1 && r.steps.length >= 1);
  assert.ok(r.steps.every((h) => /make/i.test(JSON.stringify(s.step([], h.index)!.step))));
  assert.ok(r.ms >= 0 && r.ms <= took, `${r.ms} ms within the ${took} ms of the call`);
  assert.deepEqual({ ...s.search([], 'zzz-none'), ms: 0 }, { query: 'zzz-none', total: 0, steps: [], ms: 0, partial: false });
  const sub = await open(subagentTrajectory().files);
  const i = sub.view.subagents.findIndex((x) => x.kind === 'path' && x.view);
  assert.deepEqual(sub.search([i], 'summary by file-sub').steps.map((h) => h.index), [1]);
  assert.equal(sub.search([], 'summary by file-sub').total, 0, 'the top trajectory does not have it');
});

/** The files read in 8 KiB chunks whatever the reader asks for (so the first page comes before the rest). */
const chunked = (files: Parameters<typeof memFolder>[0]): TrajectoryFs => chunkedFs(memFolder(files, DIR), 8192);

test('while it is read: the same session each time, loading as read so far, reading waits for the listener', async () => {
  const seen: { steps: number; loading: unknown; partial: boolean; same: boolean }[] = [];
  let first = null as TrajectorySession | null;
  let grewWhileWaiting: number | null = null;
  const s = await TrajectorySession.open(chunked({ 'trajectory.json': bigTrajectory(200, 200_000) }), FILE, DIR, {
    onProgress: async (sess) => {
      first ??= sess;
      seen.push({ steps: sess.view.steps.length, loading: sess.loading, partial: sess.search([], 'the').partial, same: sess === first });
      assert.deepEqual(sess.outline([])!.loading, sess.loading);
      assert.deepEqual(sess.header([])!.loading, sess.loading);
      assert.equal(sess.search([0], 'the').partial, false, 'only the top trajectory is read in pages');
      if (grewWhileWaiting === null) {
        const at = sess.view.steps.length;
        await new Promise((r) => setTimeout(r, 30));
        grewWhileWaiting = sess.view.steps.length - at;
      }
    },
  });
  assert.ok(seen.length >= 1);
  assert.equal(grewWhileWaiting, 0, 'reading waits while the listener does');
  assert.ok(s === first, 'open() resolves to the session the listener saw');
  for (const p of seen) {
    assert.ok(p.same && p.partial);
    const l = p.loading as { steps: number; bytesRead: number; bytesTotal: number };
    assert.ok(l && l.steps === p.steps && l.bytesRead > 0 && l.bytesRead < l.bytesTotal, JSON.stringify(l));
  }
  assert.equal(s.loading, null);
  assert.ok(s.view.steps.length > seen[0].steps);
  assert.equal(s.outline([])!.total, s.view.steps.length);
  assert.equal(s.outline([])!.rows.length, s.view.steps.length);
  assert.equal(s.search([], 'the').partial, false);
});

test('a trajectory large enough to be read in pages opens without a listener', async () => {
  const s = await TrajectorySession.open(chunked({ 'trajectory.json': bigTrajectory(200, 200_000) }), FILE, DIR);
  assert.equal(s.view.steps.length, 200);
  assert.equal(s.loading, null);
});

test('a search answers at most 100,000 steps (the total counts them all)', async () => {
  const n = 100_005;
  const steps = Array.from({ length: n }, (_, i) => `{"step_id":${i + 1},"source":"user","message":"m"}`).join(',');
  const s = await open({ 'trajectory.json': `{"schema_version":"ATIF-v1.7","agent":{"name":"a","version":"1"},"steps":[${steps}]}` });
  assert.equal(s.view.steps.length, n);
  const r = s.search([], 'm');
  assert.equal(r.total, n);
  assert.equal(r.steps.length, 100_000);
  assert.deepEqual(r.steps[99_999].index, 99_999);
});
