// The trajectory's own file is streamed (core/trajectory/scan.ts): read in chunks, its steps parsed one by one, the
// view growing as they come. Whatever the chunk boundaries, the view is the one the whole file gives; strings full of
// quotes, backslashes, brackets and multi-byte characters do not confuse the scan; a file the scan does not follow
// (not an object, not JSON, a repeated "steps") is read whole and says what it always said; progress shows a first
// page before the rest, with the recount completing at the end; the session searches what is read so far.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { bigTrajectory, continuedTrajectory, featureTrajectory, subagentTrajectory, xssTrajectory, type FolderFiles } from '../../../scripts/sample-runs/atifFeatures';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { loadTrajectory, type TrajectoryView } from '../../../src/core/trajectory';
import { FIRST_PAGE, type LoadProgress } from '../../../src/core/trajectory/load';
import type { TrajectoryFs } from '../../../src/core/trajectory/read';
import { TrajectorySession } from '../../../src/core/trajectory/session';
import { chunkedFs as chunked, memFolder } from './helpers';

const DIR = '/runs/job/trial/agent';
const FILE = `${DIR}/trajectory.json`;


const load = (fs: TrajectoryFs, onProgress?: (v: TrajectoryView, p: LoadProgress) => void) => loadTrajectory(fs, FILE, {}, undefined, onProgress);

const TRICKY = {
  schema_version: 'ATIF-v1.8', session_id: 'tricky "quoted" \\ path\\', agent: { name: 'a{[', version: ']}"' },
  steps: [
    { step_id: 1, source: 'user', message: 'he said "}" and \\"{[" — ünïcödé 🚀 \\\\' },
    { step_id: 2, source: 'agent', message: [{ type: 'text', text: '\\' }], tool_calls: [{ tool_call_id: 'c"1', function_name: 'f', arguments: { '"': '}]],{' } }],
      observation: { results: [{ source_call_id: 'c"1', content: '\\\\\\"' }] }, metrics: { prompt_tokens: 3, completion_tokens: 2 } },
    { step_id: 3, source: 'agent', message: '' },
  ],
  final_metrics: { total_prompt_tokens: 3, total_completion_tokens: 2, total_steps: 3 },
};

for (const [name, files] of [
  ['continued', continuedTrajectory().files], ['subagents', subagentTrajectory().files], ['features', featureTrajectory()],
  ['xss', xssTrajectory()], ['tricky strings', { 'trajectory.json': TRICKY }],
  ['agent and schema_version after steps', { 'trajectory.json': { steps: TRICKY.steps, agent: TRICKY.agent, schema_version: 'ATIF-v1.6' } }],
] as [string, FolderFiles][]) {
  test(`${name}: read in chunks of 1, 7 and 4096 bytes, the view is the whole file's`, async () => {
    const mem = memFolder(files, DIR);
    const whole = await load(mem);
    assert.ok(whole.steps.length > 0 && !whole.unreadable, JSON.stringify(whole.problems.slice(0, 3)));
    for (const n of [1, 7, 4096]) assert.deepEqual(await load(chunked(mem, n)), whole, `chunks of ${n}`);
  });
}

test('the streamed view is the parsed document\'s: same steps, header, totals, problems as JSON.parse gives', async () => {
  const mem = memFolder({ 'trajectory.json': TRICKY }, DIR);
  const v = await load(chunked(mem, 5));
  assert.equal(v.sessionId, TRICKY.session_id);
  assert.deepEqual(v.agent, { name: 'a{[', version: ']}"', model: null, toolDefinitions: 0 });
  assert.deepEqual(v.steps.map((s) => s.message), [[{ kind: 'text', text: TRICKY.steps[0].message as string }], [{ kind: 'text', text: '\\' }], []]);
  assert.equal(v.steps[1].toolCalls[0].results.length, 1, 'paired by an id holding a quote');
  assert.deepEqual(v.totals, { prompt_tokens: 3, completion_tokens: 2, cached_tokens: null, cost_usd: null });
  assert.deepEqual(v.disagreements, []);
  const late = await load(memFolder({ 'trajectory.json': { steps: TRICKY.steps, agent: TRICKY.agent, schema_version: 'ATIF-v1.6' } }, DIR));
  assert.equal(late.schemaVersion, 'ATIF-v1.6');
  assert.equal(late.notAtif, null, 'a schema_version after the steps still counts');
  assert.equal(late.agent.name, 'a{[');
});

test('files the scan does not follow are read whole and say what they always said', async () => {
  const cases: [string, string, (v: TrajectoryView) => void][] = [
    ['truncated', JSON.stringify(TRICKY).slice(0, -20), (v) => { assert.match(v.unreadable ?? '', /^not valid JSON/); assert.equal(v.steps.length, 0); }],
    ['a step that is not JSON', JSON.stringify(TRICKY).replace('"step_id":3', '"step_id":3x'), (v) => { assert.match(v.unreadable ?? '', /^not valid JSON/); assert.equal(v.steps.length, 0); }],
    ['an array', JSON.stringify([{ role: 'user', content: 'x' }]), (v) => { assert.equal(v.notAtif?.looksLike, 'a chat transcript'); }],
    ['steps twice (the last counts)', `{"schema_version":"ATIF-v1.5","agent":{"name":"a","version":"1"},"steps":[{"step_id":1,"source":"user","message":"first"}],"steps":[{"step_id":1,"source":"user","message":"second"},{"step_id":2,"source":"agent","message":"ok"}]}`,
      (v) => { assert.deepEqual(v.steps.map((s) => s.summary), ['second', 'ok']); }],
    ['trailing text', `${JSON.stringify(TRICKY)} x`, (v) => { assert.match(v.unreadable ?? '', /^not valid JSON/); }],
    ['a BOM', `\ufeff${JSON.stringify(TRICKY)}`, (v) => { assert.equal(v.steps.length, 3); assert.equal(v.unreadable, null); }],
    ['empty', '', (v) => { assert.match(v.unreadable ?? '', /^not valid JSON/); }],
  ];
  for (const [name, text, check] of cases) {
    const mem = new MemFs();
    mem.put(FILE, text);
    for (const fs of [mem, chunked(mem, 3)]) {
      const v = await load(fs);
      try { check(v); } catch (e) { throw new Error(`${name}: ${(e as Error).message}`); }
    }
  }
});

test('progress: a first page of steps with the header before the rest is read; the recount completes at the end', async () => {
  const mem = memFolder({ 'trajectory.json': bigTrajectory(600, 600_000) }, DIR);
  const seen: { steps: number; bytesRead: number; bytesTotal: number; agent: string | null; prompt: number | null }[] = [];
  const v = await load(chunked(mem, 16_384), (view, p) => seen.push({ ...p, agent: view.agent.name, prompt: view.totals.prompt_tokens }));
  assert.ok(seen.length >= 1, 'at least one progress report');
  const first = seen[0];
  assert.ok(first.steps >= FIRST_PAGE && first.steps < v.steps.length, `first page of ${first.steps} of ${v.steps.length}`);
  assert.ok(first.bytesRead < first.bytesTotal, 'reported before the whole file is read');
  assert.equal(first.agent, v.agent.name, 'the header is there with the first page');
  assert.ok(first.prompt !== null && first.prompt < v.totals.prompt_tokens!, 'totals so far, completed at the end');
  assert.deepEqual(v, await load(mem), 'the same view as without progress');
});

test('session: queries answer from the first page on; a search says it is partial until everything is read', async () => {
  const mem = memFolder({ 'trajectory.json': bigTrajectory(400, 400_000) }, DIR);
  const partial: { steps: number; rows: number; partial: boolean; hits: number }[] = [];
  const s = await TrajectorySession.open(chunked(mem, 8192), FILE, DIR, {
    onProgress: (sess) => {
      const o = sess.outline([])!;
      const r = sess.search([], 'the');
      partial.push({ steps: sess.view.steps.length, rows: o.rows.length, partial: r.partial, hits: r.steps.length });
      assert.ok(o.loading && o.loading.steps === o.rows.length);
      assert.deepEqual(sess.rows([], 10)!.rows, o.rows.slice(10));
      // In slices: the first screen's rows, then the next ones; `total` says how many are read.
      assert.deepEqual(sess.outline([], 25)!.rows, o.rows.slice(0, 25));
      assert.deepEqual(sess.rows([], 10, 5)!, { rows: o.rows.slice(10, 15), total: o.rows.length, loading: o.loading });
      assert.deepEqual(sess.header([]), { header: o.header, total: o.rows.length, loading: o.loading });
    },
  });
  assert.ok(partial.length >= 1 && partial.every((p) => p.partial && p.rows === p.steps && p.steps < 400));
  const done = s.search([], 'the');
  assert.equal(done.partial, false);
  assert.ok(done.steps.length >= partial[partial.length - 1].hits);
  assert.equal(s.outline([])!.loading, null);
  assert.equal(s.outline([])!.rows.length, s.view.steps.length);
});
