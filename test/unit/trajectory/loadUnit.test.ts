// The trajectory loader (core/trajectory/load.ts) on small hand-built folders, each read whole and streamed in 7-byte
// chunks (the two must give the same view): the header and its problems (first in the list), documents that are not
// ATIF, empty or missing steps, files that cannot be read (with why), timestamps and durations, the recount, copied
// context folded only in continuations, continuations that loop, are missing, are not ATIF or are too many, embedded
// subagent trajectories that are not objects, have no id or repeat one, what is kept of each file, task-level seeds.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { isTaskLevel, loadTrajectory, type LoadLimits, type Problem, type TrajectoryFs, type TrajectoryView } from '../../../src/core/trajectory';
import type { KeptDoc } from '../../../src/core/trajectory/load';
import { chunkedFs } from './helpers';

const DIR = '/runs/job/trial/agent';
const FILE = `${DIR}/trajectory.json`;
const agent = { name: 'a', version: '1' };

function mem(files: Record<string, unknown>, dir = DIR): MemFs {
  const m = new MemFs();
  for (const [rel, v] of Object.entries(files)) m.put(`${dir}/${rel}`, typeof v === 'string' || v instanceof Uint8Array ? v : JSON.stringify(v));
  return m;
}

/** Loads `file` whole and streamed; both views must be the same; returns the streamed one. */
async function load(m: MemFs, limits: Partial<LoadLimits> = {}, file = FILE, keep?: Map<string, KeptDoc>): Promise<TrajectoryView> {
  const whole = await loadTrajectory(m, file, limits);
  const streamed = await loadTrajectory(chunkedFs(m, 7), file, limits, keep);
  assert.deepEqual(streamed, whole);
  return streamed;
}
const P = (pointer: string, severity: Problem['severity'], message: string, file = FILE): Problem => ({ file, pointer, severity, message });
const step = (id: number, source: string, message: unknown, more: Record<string, unknown> = {}) => ({ step_id: id, source, message, ...more });

test('the header: version, agent, ids, notes, final metrics; its problems come first, wherever the keys are', async () => {
  const steps = [step(1, 'user', 'hi'), step(3, 'agent', 'x')];
  const header = { schema_version: 'ATIF-v1.9', agent: { name: 'n', version: 'v', model_name: 'm', tool_definitions: [{}, {}] }, session_id: 's', trajectory_id: 't', notes: 'note', final_metrics: { total_steps: 2 } };
  for (const doc of [{ ...header, steps }, { steps, ...header }]) {
    const v = await load(mem({ 'trajectory.json': doc }));
    assert.equal(v.schemaVersion, 'ATIF-v1.9');
    assert.deepEqual(v.agent, { name: 'n', version: 'v', model: 'm', toolDefinitions: 2 });
    assert.deepEqual([v.sessionId, v.trajectoryId, v.notes, v.finalMetrics, v.notAtif, v.unreadable, v.taskLevel, v.pointer, v.file], ['s', 't', 'note', { total_steps: 2 }, null, null, false, '', FILE]);
    assert.deepEqual(v.problems, [
      P('/schema_version', 'warning', 'ATIF-v1.9 is newer than the versions this viewer knows (ATIF-v1.0 … v1.8); shown as far as it parses'),
      P('/steps/1/step_id', 'warning', 'step_id 3 is out of sequence (expected 2)'),
    ]);
    assert.deepEqual(v.files, [{ path: FILE, firstStep: 0, steps: 2, foldedCopies: 0, schemaVersion: 'ATIF-v1.9', finalMetrics: { total_steps: 2 } }]);
    assert.deepEqual(v.disagreements, []);
  }
  for (const doc of [{ schema_version: 'ATIF-v1.7', agent: 'x', session_id: 5, notes: [], final_metrics: [1], steps }, { steps, final_metrics: 3, schema_version: 'ATIF-v1.7' }]) {
    const v = await load(mem({ 'trajectory.json': doc }));
    assert.deepEqual(v.agent, { name: null, version: null, model: null, toolDefinitions: 0 });
    assert.deepEqual([v.sessionId, v.notes, v.finalMetrics, v.files[0].finalMetrics], [null, null, null, null]);
    assert.deepEqual(v.problems.map((p) => [p.pointer, p.severity, p.message]), [
      ['/agent', 'error', 'agent is missing or not an object'], ['/steps/1/step_id', 'warning', 'step_id 3 is out of sequence (expected 2)'],
    ]);
  }
  const v = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent: { name: 1, tool_definitions: { a: 1 } }, steps } }));
  assert.deepEqual(v.agent, { name: null, version: null, model: null, toolDefinitions: 0 });
  assert.equal(v.problems.length, 1);
});

test('not ATIF: what it looks like, nothing else; an ATIF-like document still shows its steps', async () => {
  for (const [doc, looksLike, detail] of [
    [{ foo: 1, steps: 'no' }, 'unrelated JSON', 'an object with "foo", "steps"; an ATIF trajectory has "schema_version": "ATIF-v1.x", "agent" and "steps"'],
    [[1, 2], 'unrelated JSON', 'a JSON array of 2 items, not an ATIF document'],
    ['"text"', 'unrelated JSON', 'a JSON string, not an ATIF document'],
  ] as [unknown, string, string][]) {
    const v = await load(mem({ 'trajectory.json': typeof doc === 'string' ? doc : JSON.stringify(doc) }));
    assert.deepEqual(v.notAtif, { looksLike, detail });
    assert.deepEqual(v.problems, [P('', 'error', `not ATIF: ${looksLike} — ${detail}`)]);
    assert.deepEqual([v.steps, v.files, v.schemaVersion, v.unreadable, v.agent.name, v.pointer, v.file], [[], [], null, null, null, '', FILE]);
  }
  const like = await load(mem({ 'trajectory.json': { schema_version: 'v2', agent, steps: [step(1, 'user', 'a')] } }));
  assert.deepEqual(like.notAtif, { looksLike: 'an ATIF-like document without an ATIF schema_version', detail: 'schema_version is "v2"; its steps are shown as far as they parse' });
  assert.equal(like.problems[0].message, 'not ATIF: an ATIF-like document without an ATIF schema_version — schema_version is "v2"; its steps are shown as far as they parse');
  assert.equal(like.problems.length, 1);
  assert.deepEqual(like.steps.map((s) => s.summary), ['a']);
  assert.equal(like.agent.name, 'a');
  assert.equal(like.schemaVersion, null);
});

test('steps empty, missing or not a list; a repeated steps list (read whole: the last one)', async () => {
  const h = { schema_version: 'ATIF-v1.7', agent };
  for (const [doc, message] of [
    [{ ...h, steps: [] }, 'steps is empty (ATIF needs at least one)'],
    [h, 'steps is missing or not a list'],
    [{ ...h, steps: { 0: 1 } }, 'steps is missing or not a list'],
    [`{"schema_version":"ATIF-v1.7","agent":{"name":"a"},"steps":[{"step_id":1,"source":"user","message":"a"}],"steps":[]}`, 'steps is empty (ATIF needs at least one)'],
  ] as [unknown, string][]) {
    const v = await load(mem({ 'trajectory.json': typeof doc === 'string' ? doc : JSON.stringify(doc) }));
    assert.deepEqual(v.problems, [P('/steps', 'error', message)]);
    assert.deepEqual(v.files, [{ path: FILE, firstStep: 0, steps: 0, foldedCopies: 0, schemaVersion: 'ATIF-v1.7', finalMetrics: null }]);
    assert.deepEqual(v.steps, []);
  }
});

test('files that cannot be read say why: missing, not JSON, too large, over the file budget, a read that fails', async () => {
  const unreadable = (v: TrajectoryView, message: string, taskLevel = false) => {
    assert.equal(v.unreadable, message);
    assert.deepEqual(v.problems, [P('', 'error', message, v.file)]);
    assert.deepEqual([v.steps, v.files, v.notAtif, v.schemaVersion, v.taskLevel], [[], [], null, null, taskLevel]);
  };
  unreadable(await load(mem({})), 'no such file');
  assert.equal((await load(mem({}))).file, FILE);
  let why = ''; try { JSON.parse('{"a":'); } catch (e) { why = (e as Error).message; }
  unreadable(await load(mem({ 'trajectory.json': '{"a":' })), `not valid JSON at line 1, column 6: ${why}`);
  const doc = JSON.stringify({ schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'user', 'a')] });
  unreadable(await load(mem({ 'trajectory.json': doc }), { maxBytes: 10 }), `too large (${doc.length} bytes; the limit is 10)`);
  unreadable(await load(mem({ 'trajectory.json': doc }), { maxFiles: 0 }), 'not read: more than 0 files');
  unreadable(await loadTrajectory(chunkedFs(mem({ 'trajectory.json': doc }), 7, 14), FILE), 'cannot be read: boom');
  // A task's seed stays one when it cannot be read.
  const seed = mem({ 'trajectory.json': '{', 'instruction.md': 'do it' }, '/tasks/t');
  unreadable(await load(seed, {}, '/tasks/t/trajectory.json'), `not valid JSON at line 1, column 2: ${(() => { try { JSON.parse('{'); } catch (e) { return (e as Error).message; } return ''; })()}`, true);
  // A byte order mark is not part of the JSON, read whole or streamed.
  const bom = (s: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s)]);
  assert.equal((await load(mem({ 'trajectory.json': bom(doc) }))).steps.length, 1);
  assert.deepEqual((await load(mem({ 'trajectory.json': bom('[{"role":"user","content":"x"}]') }))).notAtif?.looksLike, 'a chat transcript');
});

test('timestamps: durations between steps in order, an earlier one is an info problem, elapsed first to last', async () => {
  const ts = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;
  const v = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [
    step(1, 'user', 'a', { timestamp: ts(0) }), step(2, 'agent', 'b', { timestamp: ts(5) }), step(3, 'agent', 'c', { timestamp: ts(5) }),
    step(4, 'agent', 'd'), step(5, 'agent', 'e', { timestamp: ts(9) }), step(6, 'agent', 'f', { timestamp: ts(7) }),
  ] } }));
  assert.deepEqual(v.steps.map((s) => s.durationMs), [null, 5000, 0, null, null, null]);
  assert.deepEqual(v.problems, [P('/steps/5/timestamp', 'info', 'timestamp is earlier than the step before (no duration shown)')]);
  assert.equal(v.elapsedMs, 7000);
  const back = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'user', 'a', { timestamp: ts(9) }), step(2, 'agent', 'b', { timestamp: ts(3) })] } }));
  // In a continuation, the problem names the continuation's file.
  const cont = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, continued_trajectory_ref: 'c.json', steps: [step(1, 'user', 'a', { timestamp: ts(9) })] },
    'c.json': { schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'agent', 'b', { timestamp: ts(2) })] } }));
  assert.deepEqual(cont.problems, [P('/steps/0/timestamp', 'info', 'timestamp is earlier than the step before (no duration shown)', `${DIR}/c.json`)]);
  assert.equal(back.elapsedMs, null);
  const one = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'user', 'a', { timestamp: ts(4) }), step(2, 'agent', 'b')] } }));
  assert.equal(one.elapsedMs, 0);
  const none = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'user', 'a')] } }));
  assert.equal(none.elapsedMs, null);
});

test('the recount: tokens and cost of steps that are not copied context; tool calls and how many were answered', async () => {
  const call = (id: string) => ({ tool_call_id: id, function_name: 'f', arguments: {} });
  const v = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, final_metrics: { total_prompt_tokens: 5, total_steps: 3 }, steps: [
    step(1, 'agent', 'a', { metrics: { prompt_tokens: 10, completion_tokens: 2, cost_usd: 0.5 }, tool_calls: [call('x'), call('y')], observation: { results: [{ source_call_id: 'y', content: 'ok' }] } }),
    step(2, 'agent', 'b', { metrics: { prompt_tokens: 100, completion_tokens: 20 }, is_copied_context: true, tool_calls: [call('z')], observation: { results: [{ source_call_id: 'z', content: 'ok' }] } }),
    step(3, 'agent', 'c', { metrics: { prompt_tokens: 1, cached_tokens: 1 } }),
  ] } }));
  assert.deepEqual(v.totals, { prompt_tokens: 11, completion_tokens: 2, cached_tokens: 1, cost_usd: 0.5 });
  assert.deepEqual(v.totalsWithSubagents, v.totals);
  assert.equal(v.toolCalls, 3);
  assert.equal(v.paired, 2);
  assert.deepEqual(v.disagreements, [{ field: 'prompt_tokens', recorded: 5, recount: 11, recountWithSubagents: 11 }]);
});

test('continuations: joined with copies folded (never in the first file); loops, missing, not ATIF, too many', async () => {
  const h = { schema_version: 'ATIF-v1.7', agent };
  const copy = { is_copied_context: true };
  const files = {
    'trajectory.json': { ...h, continued_trajectory_ref: 'trajectory.cont-1.json', steps: [step(1, 'user', 'task'), step(2, 'agent', 'same', copy), step(3, 'agent', 'same', copy)] },
    'trajectory.cont-1.json': { schema_version: 'ATIF-v1.6', agent, final_metrics: { total_steps: 9 }, continued_trajectory_ref: 'more/../trajectory.cont-2.json',
      steps: [step(1, 'user', 'task', copy), step(2, 'agent', 'task', copy), step(3, 'user', 'task'), step(4, 'agent', 'new')] },
    'trajectory.cont-2.json': { ...h, continued_trajectory_ref: '../agent/trajectory.json', steps: [step(1, 'agent', 'last')] },
  };
  const keep = new Map<string, KeptDoc>();
  const v = await load(mem(files), {}, FILE, keep);
  assert.deepEqual(v.steps.map((s) => [s.file, s.summary, s.copied]), [
    [0, 'task', false], [0, 'same', true], [0, 'same', true], [1, 'task', true], [1, 'task', false], [1, 'new', false], [2, 'last', false],
  ]);
  assert.deepEqual(v.steps.map((s) => s.index), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(v.files, [
    { path: FILE, firstStep: 0, steps: 3, foldedCopies: 0, schemaVersion: 'ATIF-v1.7', finalMetrics: null },
    { path: `${DIR}/trajectory.cont-1.json`, firstStep: 3, steps: 3, foldedCopies: 1, schemaVersion: 'ATIF-v1.6', finalMetrics: { total_steps: 9 } },
    { path: `${DIR}/trajectory.cont-2.json`, firstStep: 6, steps: 1, foldedCopies: 0, schemaVersion: 'ATIF-v1.7', finalMetrics: null },
  ]);
  assert.deepEqual(v.problems, [P('/continued_trajectory_ref', 'error', 'continued_trajectory_ref "../agent/trajectory.json" loops back to a file already on the timeline', `${DIR}/trajectory.cont-2.json`)]);
  assert.deepEqual(v.disagreements, [{ field: 'steps', recorded: 9, recount: 7, recountWithSubagents: 7 }]);
  assert.deepEqual(v.steps[4].pointer, '/steps/2');
  assert.deepEqual([...keep.keys()].sort(), [`${DIR}/trajectory.cont-1.json`, `${DIR}/trajectory.cont-2.json`, FILE]);
  assert.equal(keep.get(FILE)?.at('/steps/1/message'), 'same');
  assert.equal(keep.get(`${DIR}/trajectory.cont-1.json`)?.at('/steps/3/message'), 'new');
  assert.equal(keep.get(`${DIR}/trajectory.cont-1.json`)?.at('/final_metrics/total_steps'), 9);

  const one = await load(mem(files), { maxContinuations: 1 });
  assert.equal(one.files.length, 2);
  assert.deepEqual(one.problems, [P('/continued_trajectory_ref', 'warning', 'stopped after 1 continuations', `${DIR}/trajectory.cont-1.json`)]);
  const two = await load(mem(files), { maxContinuations: 2 });
  assert.equal(two.files.length, 3);
  assert.deepEqual(two.problems.map((p) => p.message), ['stopped after 2 continuations']);
  const three = await load(mem(files), { maxContinuations: 3 });
  assert.deepEqual(three.problems.map((p) => p.message), ['continued_trajectory_ref "../agent/trajectory.json" loops back to a file already on the timeline']);
  const budget = await load(mem(files), { maxFiles: 2 });
  assert.equal(budget.files.length, 2);
  assert.deepEqual(budget.problems, [P('/continued_trajectory_ref', 'error', 'continuation "more/../trajectory.cont-2.json": not read: more than 2 files', `${DIR}/trajectory.cont-1.json`)]);

  const ref = (to: string, more: Record<string, string> = {}) => ({ 'trajectory.json': { ...h, continued_trajectory_ref: to, steps: [step(1, 'user', 'a')] }, ...more });
  assert.deepEqual((await load(mem(ref('nope.json')))).problems, [P('/continued_trajectory_ref', 'error', 'continuation "nope.json": no such file')]);
  assert.deepEqual((await load(mem(ref('trajectory.json')))).problems, [P('/continued_trajectory_ref', 'error', 'continued_trajectory_ref "trajectory.json" loops back to a file already on the timeline')]);
  for (const bad of ['[1]', '{"steps":[]}', '{"schema_version":"v1","steps":[]}']) {
    const c = await load(mem(ref('c.json', { 'c.json': bad })));
    assert.deepEqual(c.problems, [P('', 'error', 'continuation is not an ATIF document', `${DIR}/c.json`)]);
    assert.equal(c.files.length, 1);
  }
  let why = ''; try { JSON.parse('{'); } catch (e) { why = (e as Error).message; }
  assert.deepEqual((await load(mem(ref('c.json', { 'c.json': '{' })))).problems, [P('/continued_trajectory_ref', 'error', `continuation "c.json": not valid JSON at line 1, column 2: ${why}`)]);
  const failing = await loadTrajectory(chunkedFs(mem(ref('c.json', { 'c.json': JSON.stringify({ ...h, steps: [step(1, 'user', 'b')] }) })), 7, 14, /c\.json$/), FILE);
  assert.equal(failing.unreadable, null);
  assert.deepEqual(failing.problems, [P('/continued_trajectory_ref', 'error', 'continuation "c.json": cannot be read: boom')]);
  assert.equal((await load(mem(ref('', {})))).files.length, 1);
});

test('embedded subagent trajectories: not an object, without an id, a repeated id; each listed with its own view', async () => {
  const sub = (id: string | null, text: string) => ({ schema_version: 'ATIF-v1.7', agent: { name: `sub-${text}` }, ...(id ? { trajectory_id: id } : {}), steps: [step(1, 'agent', text, { metrics: { prompt_tokens: 3 } })] });
  const v = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'agent', 'main', { metrics: { prompt_tokens: 1 } })],
    subagent_trajectories: ['x', sub(null, 'anon'), sub('e1', 'first'), sub('e1', 'second')] } }));
  assert.deepEqual(v.problems, [
    P('/subagent_trajectories/0', 'error', 'embedded subagent trajectory is not an object'),
    P('/subagent_trajectories/1/trajectory_id', 'warning', 'embedded subagent trajectory without trajectory_id (nothing can reference it)'),
    P('/subagent_trajectories/3/trajectory_id', 'warning', 'trajectory_id "e1" is not unique'),
  ]);
  assert.deepEqual(v.subagents.map((s) => [s.kind, s.ref, s.path, s.agent, s.steps, s.view?.pointer, s.view?.steps[0].pointer]), [
    ['embedded', '', `${FILE}#/subagent_trajectories/1`, 'sub-anon', 1, '/subagent_trajectories/1', '/subagent_trajectories/1/steps/0'],
    ['embedded', 'e1', `${FILE}#/subagent_trajectories/2`, 'sub-first', 1, '/subagent_trajectories/2', '/subagent_trajectories/2/steps/0'],
  ]);
  assert.equal(v.totals.prompt_tokens, 1);
  assert.equal(v.totalsWithSubagents.prompt_tokens, 7);
  const inner = await load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'agent', 'm')], subagent_trajectories: [{ trajectory_id: 'bad', steps: [step(2, 'agent', 'x')] }] } }));
  assert.deepEqual(inner.subagents[0].view?.problems, [
    P('/subagent_trajectories/0', 'error', 'not ATIF: an ATIF-like document without an ATIF schema_version — schema_version is missing; its steps are shown as far as they parse'),
    P('/subagent_trajectories/0/agent', 'error', 'agent is missing or not an object'),
    P('/subagent_trajectories/0/steps/0/step_id', 'warning', 'step_id 2 is out of sequence (expected 1)'),
  ]);
  assert.deepEqual(inner.problems, []);
  assert.equal(inner.subagents[0].view?.taskLevel, false);
  // Embedded trajectories without an id are each their own; one nested in another counts one level deeper.
  const nest = (depth: number) => load(mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'agent', 'm')],
    subagent_trajectories: [{ ...sub(null, 'x'), subagent_trajectories: [sub(null, 'y')] }, sub(null, 'z')] } }), { maxDepth: depth });
  const deep = await nest(2);
  assert.deepEqual(deep.subagents.map((s) => [s.path, s.agent]), [[`${FILE}#/subagent_trajectories/0`, 'sub-x'], [`${FILE}#/subagent_trajectories/1`, 'sub-z']]);
  assert.deepEqual(deep.subagents[0].view?.subagents.map((s) => [s.path, s.agent]), [[`${FILE}#/subagent_trajectories/0/subagent_trajectories/0`, 'sub-y']]);
  assert.equal(deep.problems.filter((p) => p.message.includes('not unique')).length, 0);
  const shallow = await nest(1);
  assert.deepEqual(shallow.subagents[0].view?.subagents.map((s) => [s.path, s.view]), [[`${FILE}#/subagent_trajectories/0/subagent_trajectories/0`, null]]);
});

test('a task\'s seed trajectory is task-level: beside instruction.md, or in steps/<name>/ of a task; never in agent/', async () => {
  const m = new MemFs();
  m.put('/tasks/a/instruction.md', 'x');
  m.put('/tasks/b/steps/one/trajectory.json', '{}');
  m.put('/tasks/b/task.toml', 'x');
  m.put('/tasks/c/steps/one/trajectory.json', '{}');
  m.put('/tasks/d/instruction.md/x', 'a folder named instruction.md');
  m.put('/tasks/e/agent/instruction.md', 'x');
  m.put('/tasks/f/stepz/one/x', '');
  m.put('/tasks/f/task.toml', 'x');
  m.put('/tasks/g/steps/task.toml', 'x');
  assert.equal(await isTaskLevel(m, '/tasks/a/trajectory.json'), true);
  assert.equal(await isTaskLevel(m, '/tasks/b/steps/one/trajectory.json'), true);
  assert.equal(await isTaskLevel(m, '/tasks/c/steps/one/trajectory.json'), false);
  assert.equal(await isTaskLevel(m, '/tasks/d/trajectory.json'), false);
  assert.equal(await isTaskLevel(m, '/tasks/e/agent/trajectory.json'), false);
  assert.equal(await isTaskLevel(m, '/tasks/f/stepz/one/trajectory.json'), false);
  assert.equal(await isTaskLevel(m, '/tasks/g/steps/one/trajectory.json'), false);
  const failing: TrajectoryFs = { stat: async () => { throw new Error('EACCES'); }, readFile: (p) => m.readFile(p) };
  assert.equal(await isTaskLevel(failing, '/tasks/a/trajectory.json'), false);
  m.put('/tasks/a/trajectory.json', JSON.stringify({ schema_version: 'ATIF-v1.7', agent, steps: [step(1, 'user', 'a')] }));
  assert.equal((await load(m, {}, '/tasks/a/trajectory.json')).taskLevel, true);
});

test('progress: the growing view is handed out with the steps read so far and the bytes read of the whole', async () => {
  const steps = Array.from({ length: 130 }, (_, i) => step(i + 1, i % 2 ? 'agent' : 'user', `m${i}`));
  const m = mem({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps } });
  const size = (await m.stat(FILE))!.size;
  const seen: [number, number, number, number, string | null][] = [];
  const v = await loadTrajectory(chunkedFs(m, 512), FILE, {}, undefined, async (view, p) => {
    seen.push([p.steps, view.steps.length, p.bytesRead, p.bytesTotal, view.schemaVersion]);
    assert.equal(view.toolCalls, 0);
    assert.ok(view.steps.every((s, i) => s.index === i));
  });
  assert.ok(seen.length >= 1);
  for (const [n, len, read, total, version] of seen) {
    assert.equal(n, len);
    assert.ok(n >= 1 && n < 130, `${n}`);
    assert.ok(read > 0 && read < total, `${read} of ${total}`);
    assert.equal(total, size);
    assert.equal(version, 'ATIF-v1.7');
  }
  assert.ok(seen[0][0] <= 60);
  assert.equal(v.steps.length, 130);
});

/** Runs `f` with performance.now() answering `clock()` (restored after). */
async function withClock<T>(clock: () => number, f: () => Promise<T>): Promise<T> {
  const p = performance as { now: () => number };
  p.now = clock;
  try { return await f(); } finally { delete (p as { now?: unknown }).now; }
}

test('progress on a clock: the first page at 60 steps when reading is quick, then none; every step when it is slow', async () => {
  const doc = (n: number) => ({ schema_version: 'ATIF-v1.7', agent, steps: Array.from({ length: n }, (_, i) => step(i + 1, 'agent', `m${i}`)) });
  const calls = async (n: number, clock: () => number) => {
    const seen: number[] = [];
    const v = await withClock(clock, () => loadTrajectory(chunkedFs(mem({ 'trajectory.json': doc(n) }), 64), FILE, {}, undefined, (view, p) => { seen.push(p.steps); }));
    assert.equal(v.steps.length, n);
    return seen;
  };
  assert.deepEqual(await calls(130, () => 1000), [60], 'a clock that stands still: only the first page');
  assert.deepEqual(await calls(59, () => 1000), []);
  assert.deepEqual(await calls(60, () => 1000), [60]);
  let t = 0;
  assert.deepEqual(await calls(5, () => (t += 1000)), [1, 2, 3, 4, 5], 'a second between readings: each step is a page');
  t = 0;
  assert.deepEqual(await calls(5, () => (t += 100)), [2, 4], 'the first page once more than 150 ms passed, the next once more than 250 ms passed since it');
});

test('slices on a clock: the event loop gets a turn only after 12 ms of reading, and a page exactly at the bound waits', async () => {
  const doc = { schema_version: 'ATIF-v1.7', agent, steps: Array.from({ length: 20 }, (_, i) => step(i + 1, 'agent', `m${i}`)) };
  const m = mem({ 'trajectory.json': doc });
  /** Event-loop turns (setImmediate callbacks run) while the file loads whole, and the steps of each progress call. */
  const run = async (clock: () => number) => {
    let turns = 0; let on = true;
    const tick = () => { if (!on) return; turns++; setImmediate(tick); };
    const pages: number[] = [];
    const v = await withClock(clock, async () => {
      setImmediate(tick);
      try { return await loadTrajectory(m, FILE, {}, undefined, (_, p) => { pages.push(p.steps); }); } finally { on = false; }
    });
    assert.equal(v.steps.length, 20);
    return { turns, pages };
  };
  assert.deepEqual(await run(() => 1000), { turns: 0, pages: [] }, 'a clock that stands still: no turn, no page');
  let t = 0;
  const slow = await run(() => (t += 13));
  assert.ok(slow.turns >= 5, `${slow.turns} turns`);
  t = 0;
  // 50 ms a reading: the first page once more than 150 ms passed (not at 150), then once more than 250 ms (not at 250).
  assert.deepEqual((await run(() => (t += 50))).pages, [3, 7, 11, 15, 19]);
  t = 0;
  // 12 ms a reading: a slice of exactly 12 ms goes on, so a turn comes every other step until the first page.
  assert.deepEqual(await run(() => (t += 12)), { turns: 9, pages: [9] });
});
