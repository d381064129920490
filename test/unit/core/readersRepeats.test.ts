// A run summary's tasks and repeats read into attempts (src/core/readers/nemo/repeats.ts readTasks), on an in-memory
// file system: each attempt's outcome, reward, failure, details and health from its row, the task's digest, the order
// of attempts and problems, and the verifier folders listed (and ctrf.json files read) up front in batches when the
// port can, giving the same tasks as a listing and a read per repeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EntryType, FileRead, FsPort } from '../../../src/core/fs/port';
import type { Problem } from '../../../src/core/model';
import { parseJsonDocument } from '../../../src/core/readers/jsonFile';
import { CHUNK_REPEATS, readTasks } from '../../../src/core/readers/nemo/repeats';
import { normTasks } from '../../../src/core/readers/nemo/summaryShape';
import type { Health } from '../../../src/core/readers/nemo/verdicts';
import { MemFs } from '../../../scripts/sample-runs/memFs';

type Obj = Record<string, unknown>;
const ROOT = '/r';

/** A port over a MemFs: with or without the batch calls, counting what is asked. */
function portOf(m: MemFs, batch: boolean) {
  const asked = { listDirs: [] as string[][], gather: [] as string[][], readDir: 0, readFile: [] as string[] };
  const port: FsPort = Object.assign(Object.create(m) as FsPort, {
    readDir: (p: string) => { asked.readDir++; return m.readDir(p); },
    readFile: (p: string) => { asked.readFile.push(p); return m.readFile(p); },
    ...(batch ? {
      listDirs: async (ps: readonly string[]) => {
        asked.listDirs.push([...ps]);
        return Promise.all(ps.map(async (p) => ((await m.stat(p))?.type === 'dir' ? m.readDir(p) : undefined)));
      },
      gather: async (lists: readonly string[], reads: readonly { path: string; maxBytes: number }[]) => {
        asked.gather.push(reads.map((r) => r.path));
        const got: FileRead[] = await Promise.all(reads.map(async (r) => {
          try { return { text: new TextDecoder().decode(await m.readFile(r.path)) }; } catch { return { missing: true as const }; }
        }));
        return { lists: lists.map(() => undefined), reads: got, stats: [] };
      },
    } : { listDirs: undefined, gather: undefined }),
  });
  return { port, asked };
}

async function tasksOf(port: FsPort, tasks: unknown, health = new Map<string, Health>(), known?: ReadonlyMap<string, [string, EntryType][] | undefined>) {
  const doc = parseJsonDocument(`${ROOT}/x_run_summary.json`, JSON.stringify({ files: {}, tasks }, null, 2), 'run summary');
  const problems: Problem[] = [];
  const got = await readTasks(port, doc, ROOT, normTasks(tasks), health, problems, known);
  return { ...got, problems };
}

const CTRF = JSON.stringify({ results: { tests: [{ name: 'bad', status: 'failed' }] } });

test('each attempt from its row: outcome, reward, source outcome, failure, details; the task\'s digest from its first attempt with one', async () => {
  const { port } = portOf(new MemFs(), false);
  const { tasks, problems } = await tasksOf(port, [
    { task_id: 'a', task_index: 4, repeats: [
      { repeat: 0, outcome: 'scored', reward: 1, verifier_mode: 'shared', mask_sample: false,
        input: { digests: { other: 'd-other', _ng_digest: 'd-main' }, metadata: [{ s: 'x', n: 2, b: true, o: { no: 1 }, z: null }, { s: 'y' }] } },
      { repeat: 1, outcome: 'scored', reward: 0, mask_sample: true, failure_kind: 'verifier_error', failure_reason: 'r', failure_class: 'c', failure_stage: 'st', failure_terminal: true,
        input: { digests: { a: 7, b: 'd-first-text' }, metadata: { only: 'one' } } },
      { repeat: 2, outcome: 'failed', reward: 0.5 },
      { repeat: 3, outcome: 'missing', reward: 0, failure_terminal: false },
      { repeat: 4, outcome: 7, reward: 1 },
      { repeat: 5, outcome: 'masked', reward: 'x', input: { digests: { a: 1 }, metadata: [] } },
    ] },
    { task_id: 'b', repeats: [{ repeat: 0, outcome: 'scored', reward: 1, input: { digests: {} } }, { repeat: 1, outcome: 'scored', reward: 1, input: { digests: { k: 'db' } } }] },
    { task_id: 'c', repeats: [{ repeat: 0, outcome: 'scored', reward: 1, input: 'not an object' }] },
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual(tasks.map((t) => [t.id, t.label, t.index, t.details]), [['a', 'a', 4, { digest: 'd-main' }], ['b', 'b', undefined, { digest: 'db' }], ['c', 'c', undefined, {}]]);
  assert.equal('index' in tasks[1], false);
  const [a0, a1, a2, a3, a4, a5] = tasks[0].attempts;
  assert.deepEqual(a0, { id: 'a#0', index: 0, label: '#1', outcome: 'passed', reward: 1, sourceOutcome: 'scored', evidence: [], missing: [],
    details: { verifier_mode: 'shared', mask_sample: false, digest: 'd-main', turns: 2, s: 'x', n: 2, b: true } });
  assert.deepEqual(a1, { id: 'a#1', index: 1, label: '#2', outcome: 'failed', reward: 0, sourceOutcome: 'scored',
    failure: { kind: 'verifier_error', reason: 'r', class: 'c', stage: 'st', terminal: true }, evidence: [], missing: [],
    details: { mask_sample: true, digest: 'd-first-text', only: 'one' } });
  // never measured: no reward, the row's number kept apart
  assert.deepEqual([a2.outcome, a2.reward, a2.details], ['infra-error', null, { row_reward: 0.5 }]);
  assert.deepEqual([a3.outcome, a3.reward, a3.details, a3.failure], ['missing', null, { row_reward: 0 }, { terminal: false }]);
  assert.deepEqual([a4.outcome, a4.sourceOutcome, 'sourceOutcome' in a4, a4.details], ['infra-error', undefined, false, { row_reward: 1 }]);
  assert.deepEqual([a5.outcome, a5.reward, a5.details], ['infra-error', null, undefined]);
  assert.equal('failure' in a0, false);
  assert.equal('details' in a5, false);
  assert.deepEqual(tasks[2].attempts[0].details, undefined);
});

test('an attempt timed out by its agent is truncated; health only for a task with an index', async () => {
  const { port } = portOf(new MemFs(), false);
  const health = new Map<string, Health>([['0:1', { verdict: 'unhealthy', checks: ['c'] }], ['0:0', { verdict: 'healthy', checks: [] }]]);
  const { tasks } = await tasksOf(port, [
    { task_id: 'a', task_index: 0, repeats: [{ repeat: 0, outcome: 'scored', reward: 1 }, { repeat: 1, outcome: 'scored', reward: 1, agent_timed_out: true }] },
    { task_id: 'b', repeats: [{ repeat: 0, outcome: 'scored', reward: 1 }] },
  ], health);
  assert.deepEqual(tasks[0].attempts.map((x) => [x.outcome, x.health]), [['passed', { verdict: 'healthy', checks: [] }], ['truncated', { verdict: 'unhealthy', checks: ['c'] }]]);
  assert.equal('health' in tasks[1].attempts[0], false);
});

test('attempts and problems in document order, however many are read at once; the folders of the attempts', async () => {
  const m = new MemFs();
  const n = 70;
  for (let i = 0; i < n; i += 2) m.put(`/r/v/s${i}/test-stdout.txt`, 'ok');
  const tasks = [0, 1].map((t) => ({ task_id: `t${t}`, repeats: Array.from({ length: n / 2 }, (_, k) => {
    const i = t * (n / 2) + k;
    return { repeat: k, outcome: 'scored', reward: 1, verifier_logs: `v/s${i}`, test_stdout: `v/s${i}/test-stdout.txt` };
  }) }));
  for (const batch of [false, true]) {
    const { port } = portOf(m, batch);
    const got = await tasksOf(port, tasks);
    assert.deepEqual(got.tasks.map((t) => t.attempts.map((a) => a.index)), [0, 1].map(() => Array.from({ length: n / 2 }, (_, k) => k)));
    assert.deepEqual(got.tasks.flatMap((t) => t.attempts.map((a) => a.dir)), Array.from({ length: n }, (_, i) => `/r/v/s${i}`));
    const odd = Array.from({ length: n }, (_, i) => i).filter((i) => i % 2 === 1);
    assert.deepEqual(got.problems.map((p) => p.jsonPath), odd.flatMap((i) => {
      const at = ['tasks', Math.floor(i / (n / 2)), 'repeats', i % (n / 2)];
      return [[...at, 'verifier_logs'], [...at, 'test_stdout']];
    }));
    // which attempt names each path not on disk
    assert.equal(got.whoByMissing.get('/r/v/s1'), 't0 #2');
    assert.equal(got.whoByMissing.get('/r/v/s69/test-stdout.txt'), 't1 #35');
    assert.equal(got.whoByMissing.has('/r/v/s0'), false);
  }
});

test('the paths a row lists as missing name its attempt, as its own missing evidence does', async () => {
  const { port } = portOf(new MemFs(), false);
  const { whoByMissing } = await tasksOf(port, [{ task_id: 'a', repeats: [
    { repeat: 0, outcome: 'scored', reward: 1, missing: ['v/x', 5, '/abs/y'] },
    { repeat: 1, outcome: 'scored', reward: 1, missing: 'v/z' },
  ] }]);
  assert.deepEqual([...whoByMissing], [['/r/v/x', 'a #1'], ['/abs/y', 'a #1']]);
});

/** Tasks whose repeats each name a verifier folder (some the same, one outside), some passed, some not. */
function batchRun(): { m: MemFs; tasks: Obj[] } {
  const m = new MemFs();
  const repeats: Obj[] = [];
  for (let i = 0; i < 6; i++) {
    m.put(`/r/v/s${i}/test-stdout.txt`, 'ok');
    m.put(`/r/v/s${i}/ctrf.json`, CTRF);
    repeats.push({ repeat: i, outcome: 'scored', reward: i % 2, verifier_logs: `v/s${i}`, test_stdout: `v/s${i}/test-stdout.txt` });
  }
  m.put('/r/v/dirctrf/ctrf.json/x', '');
  repeats.push({ repeat: 6, outcome: 'scored', reward: 0, verifier_logs: 'v/dirctrf' });
  repeats.push({ repeat: 7, outcome: 'scored', reward: 0, verifier_logs: 'v/s0' }); // a folder named twice
  repeats.push({ repeat: 8, outcome: 'scored', reward: 0, verifier_logs: '../out' }); // outside
  repeats.push({ repeat: 9, outcome: 'scored', reward: 0 }); // no folder
  repeats.push({ repeat: 10, outcome: 'failed', reward: null, verifier_logs: 'v/gone' });
  m.put('/r/v/noctrf/test-stdout.txt', 'ok');
  repeats.push({ repeat: 11, outcome: 'scored', reward: 0, verifier_logs: 'v/noctrf' }); // files, but no ctrf.json
  return { m, tasks: [{ task_id: 'a', task_index: 0, repeats }] };
}

test('with the batch calls: every folder listed once up front, the ctrf.json of the repeats that did not pass read up front; the same tasks', async () => {
  const { m, tasks } = batchRun();
  const one = portOf(m, false);
  const each = await tasksOf(one.port, tasks);
  const many = portOf(m, true);
  const batched = await tasksOf(many.port, tasks);
  assert.deepEqual(batched, each);
  assert.deepEqual(many.asked.listDirs, [['/r/v/s0', '/r/v/s1', '/r/v/s2', '/r/v/s3', '/r/v/s4', '/r/v/s5', '/r/v/dirctrf', '/r/v/gone', '/r/v/noctrf']]);
  assert.equal(many.asked.readDir, 0, 'no folder listed again');
  assert.deepEqual(many.asked.gather, [['/r/v/s0/ctrf.json', '/r/v/s2/ctrf.json', '/r/v/s4/ctrf.json', '/r/v/s0/ctrf.json']]);
  assert.deepEqual(many.asked.readFile, []);
  const failed = batched.tasks[0].attempts.filter((a) => a.evidence.some((e) => e.kind === 'ctrf' && e.failedTests));
  assert.deepEqual(failed.map((a) => a.index), [0, 2, 4, 7]);
  assert.equal(batched.tasks[0].attempts[6].evidence.some((e) => e.kind === 'ctrf'), false, 'a ctrf.json that is a folder is none');
  assert.ok(one.asked.readDir > 0);
});

test('a listing given (a summary just written) is used as is; a listDirs that fails leaves each repeat to list its own folder', async () => {
  const { m, tasks } = batchRun();
  const many = portOf(m, true);
  const known = new Map<string, [string, EntryType][] | undefined>([['/r/v/s0', [['test-stdout.txt', 'file']]]]);
  const got = await tasksOf(many.port, [{ task_id: 'a', repeats: [{ repeat: 0, outcome: 'scored', reward: 0, verifier_logs: 'v/s0', test_stdout: 'v/s0/test-stdout.txt' }] }], undefined, known);
  assert.deepEqual(many.asked.listDirs, []);
  assert.deepEqual(got.tasks[0].attempts[0].evidence.map((e) => e.kind), ['verifier-logs', 'test-stdout'], 'the listing given has no ctrf.json');
  const failing = portOf(m, true);
  const port = Object.assign(Object.create(failing.port) as FsPort, { listDirs: () => Promise.reject(new Error('worker gone')) });
  const each = await tasksOf(portOf(m, false).port, tasks);
  assert.deepEqual(await tasksOf(port, tasks), each);
  assert.deepEqual(failing.asked.gather, [], 'nothing read up front without the listings');
});

test('over 2,048 folders: listed and read in batches of at most 2,048, each once', async () => {
  const m = new MemFs();
  const n = 2050;
  const repeats: Obj[] = [];
  for (let i = 0; i < n; i++) {
    m.put(`/r/v/s${i}/ctrf.json`, CTRF);
    repeats.push({ repeat: i, outcome: 'scored', reward: 0, verifier_logs: `v/s${i}` });
  }
  const many = portOf(m, true);
  const got = await tasksOf(many.port, [{ task_id: 'a', repeats }]);
  assert.deepEqual(many.asked.listDirs.map((b) => b.length), [2048, 2]);
  assert.deepEqual(many.asked.listDirs.flat(), repeats.map((_, i) => `/r/v/s${i}`));
  assert.deepEqual(many.asked.gather.map((b) => b.length), [2048, 2]);
  assert.deepEqual(many.asked.gather.flat(), repeats.map((_, i) => `/r/v/s${i}/ctrf.json`));
  assert.equal(many.asked.readDir, 0);
  assert.equal(got.tasks[0].attempts.filter((a) => a.evidence.some((e) => e.failedTests?.length)).length, n);
});

test('in chunks of whole tasks: a later chunk is listed only once an earlier one is built and its parsed tasks let go; the same tasks', async () => {
  const m = new MemFs();
  const list: Obj[] = [];
  for (let t = 0; t < 5; t++) {
    const repeats: Obj[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 100 === 0) m.put(`/r/v/t${t}s${i}/ctrf.json`, CTRF);
      else m.put(`/r/v/t${t}s${i}/test-stdout.txt`, 'x');
      repeats.push({ repeat: i, outcome: 'scored', reward: i % 2, verifier_logs: `v/t${t}s${i}`, test_stdout: `v/t${t}s${i}/test-stdout.txt` });
    }
    list.push({ task_id: `t${t}`, repeats });
  }
  const events: string[] = [];
  const batch = portOf(m, true);
  const port = Object.assign(Object.create(batch.port) as FsPort, {
    listDirs: (ps: readonly string[]) => { events.push(`list ${ps[0]}`); return batch.port.listDirs!(ps); },
  });
  const doc = parseJsonDocument(`${ROOT}/x_run_summary.json`, JSON.stringify({ files: {}, tasks: list }, null, 2), 'run summary');
  const problems: Problem[] = [];
  const got = await readTasks(port, doc, ROOT, normTasks(list), new Map(), problems, undefined, (t) => events.push(`release ${t.taskId}`));
  // Chunks of ≥ CHUNK_REPEATS (512) repeats in whole tasks: t0+t1, t2+t3, t4; the next chunk listed while one is built.
  assert.equal(CHUNK_REPEATS, 512);
  assert.deepEqual(events.filter((e) => e.startsWith('list')), ['list /r/v/t0s0', 'list /r/v/t2s0', 'list /r/v/t4s0']);
  assert.ok(events.indexOf('release t1') < events.indexOf('list /r/v/t4s0'), events.join(', '));
  assert.ok(events.indexOf('list /r/v/t2s0') < events.indexOf('release t0'), events.join(', '));
  assert.deepEqual(events.filter((e) => e.startsWith('release')), ['release t0', 'release t1', 'release t2', 'release t3', 'release t4']);
  const one = await tasksOf(portOf(m, false).port, list);
  assert.deepEqual(got.tasks, one.tasks);
  assert.deepEqual(problems, one.problems);
  assert.equal(got.tasks.flatMap((t) => t.attempts).filter((a) => a.evidence.some((e) => e.failedTests?.length)).length, 5 * 3);
});

test('the first chunk is listed while the health verdicts are still read; nothing is built or said before they are in', async () => {
  const m = new MemFs();
  const repeats: Obj[] = [];
  for (let i = 0; i < 4; i++) repeats.push({ repeat: i, outcome: 'scored', reward: 1, verifier_logs: `v/s${i}`, test_stdout: `v/s${i}/gone.txt` });
  for (let i = 0; i < 4; i++) m.put(`/r/v/s${i}/ctrf.json`, CTRF);
  const events: string[] = [];
  const batch = portOf(m, true);
  const port = Object.assign(Object.create(batch.port) as FsPort, {
    listDirs: (ps: readonly string[]) => { events.push('listed'); return batch.port.listDirs!(ps); },
  });
  const doc = parseJsonDocument(`${ROOT}/x_run_summary.json`, JSON.stringify({ files: {}, tasks: [{ task_id: 'a', task_index: 0, repeats }] }, null, 2), 'run summary');
  const problems: Problem[] = [];
  let verdictsRead!: (h: Map<string, Health>) => void;
  const health = new Promise<Map<string, Health>>((resolve) => { verdictsRead = resolve; });
  const reading = readTasks(port, doc, ROOT, normTasks([{ task_id: 'a', task_index: 0, repeats }]), health, problems);
  for (let i = 0; i < 20 && !events.length; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(events, ['listed'], 'listed before the verdicts are in');
  assert.equal(problems.length, 0, 'nothing said yet');
  problems.push({ file: 'verdicts', severity: 'warning', code: 'verdicts', message: 'said while reading the verdicts' });
  verdictsRead(new Map([['0:1', { verdict: 'healthy', checks: [] } as unknown as Health]]));
  const got = await reading;
  assert.equal(problems[0].code, 'verdicts', 'the verdicts\' problems first');
  assert.deepEqual(problems.slice(1).map((p) => p.code), ['missing-evidence', 'missing-evidence', 'missing-evidence', 'missing-evidence']);
  assert.deepEqual(got.tasks[0].attempts.map((a) => a.health !== undefined), [false, true, false, false]);
});
