// Rules 4–7 of the run summary: per repeat entries, the selection, paths, verifier folders.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, relativePath } from '../../../src/core/summary';
import { buildRun, digestOf, inputEntry, missingEntry, type MiniTask } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const NULL_PATHS = { verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null };

test('rule 4: outcome, reward, failure details, verifier paths and the input per turn', async () => {
  const dir = tmpDir('rule4');
  const a: MiniTask = {
    id: 'a', turns: ['plan', 'act'], timeout: '600.0', repeats: [
      { outcome: 'scored', reward: 0.5, files: ['test-stdout.txt', 'reward.txt', 'trajectory.json', 'ctrf.json'] },
      { outcome: 'scored', reward: 1, mode: 'separate', files: ['test-stdout.txt', 'reward.json', 'reward.txt', 'trajectory.json', 'artifacts/'] },
      { outcome: 'failed', failureReason: '503 no sandbox' },
      { outcome: 'masked', failureKind: 'provider_unavailable', failureReason: 'sandbox lost' },
    ],
  };
  const rollouts = buildRun(dir, { tasks: [a] });
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  const input = { digests: { _ng_digest: 'd-a' }, metadata: [{ agent_timeout_sec: '600.0', turn: 'plan' }, { agent_timeout_sec: '600.0', turn: 'act' }] };
  assert.deepEqual(document.tasks, [{
    task_id: 'a', task_index: 0, repeats: [
      {
        repeat: 0, outcome: 'scored', reward: 0.5, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'shared',
        verifier_logs: 'verifier/s-0-0', test_stdout: 'verifier/s-0-0/test-stdout.txt', reward_file: 'verifier/s-0-0/reward.txt',
        trajectory: 'verifier/s-0-0/trajectory.json', artifacts: null, missing: [], input,
      },
      {
        repeat: 1, outcome: 'scored', reward: 1, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'separate',
        verifier_logs: 'verifier/s-0-1', test_stdout: 'verifier/s-0-1/test-stdout.txt', reward_file: 'verifier/s-0-1/reward.json',
        trajectory: 'verifier/s-0-1/trajectory.json', artifacts: 'verifier/s-0-1/artifacts', missing: [], input,
      },
      {
        repeat: 2, outcome: 'failed', reward: null, mask_sample: null, failure_kind: null, failure_reason: '503 no sandbox',
        failure_class: 'environment_server_failed', failure_stage: 'seed', failure_terminal: false, verifier_mode: null,
        ...NULL_PATHS, missing: [], input,
      },
      {
        repeat: 3, outcome: 'masked', reward: 0, mask_sample: true, failure_kind: 'provider_unavailable', failure_reason: 'sandbox lost',
        verifier_mode: 'shared', ...NULL_PATHS, missing: [], input,
      },
    ],
  }]);
});

test('rule 5: the materialized inputs select; a selected repeat with no row is missing', async () => {
  const dir = tmpDir('rule5');
  const a: MiniTask = { id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'missing' }, { outcome: 'missing' }] };
  const b: MiniTask = { id: 'b', repeats: [{ outcome: 'missing' }] };
  const rollouts = buildRun(path.join(dir, 'with'), { tasks: [a, b] });
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  assert.deepEqual(document.tasks.map((t) => [t.task_id, t.repeats.map((r) => r.outcome)]), [['a', ['scored', 'missing', 'missing']], ['b', ['missing']]]);
  assert.deepEqual(document.tasks[1].repeats[0], missingEntry(b, 0));

  // Without them: whatever the rollouts and failures files hold (no entry for repeats no file names).
  const c: MiniTask = { id: 'c', repeats: [{ outcome: 'failed' }, { outcome: 'missing' }, { outcome: 'scored', folder: 'none' }] };
  const bare = buildRun(path.join(dir, 'without'), { tasks: [a, c], materialized: false });
  const s = await buildRunSummary(nodeFs, posix(bare));
  assert.deepEqual(s.document.tasks.map((t) => [t.task_id, t.task_index, t.repeats.map((r) => [r.repeat, r.outcome])]),
    [['a', 0, [[0, 'scored']]], ['c', 1, [[0, 'failed'], [2, 'scored']]]]);
  // The input then is what the result row carried: its metadata, no digests.
  assert.deepEqual(s.document.tasks[0].repeats[0].input, { digests: {}, metadata: [{ agent_timeout_sec: '900.0' }] });
  assert.deepEqual(s.document.tasks[1].repeats[0].input, { digests: {}, metadata: [] });

  // Rows for repeats the schedule does not select are left out, with a warning.
  const extra = buildRun(path.join(dir, 'extra'), { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'scored', folder: 'none' }] }] });
  const mat = path.join(dir, 'extra', 'rollouts_materialized_inputs.jsonl');
  fs.writeFileSync(mat, fs.readFileSync(mat, 'utf8').split('\n')[0] + '\n');
  const e = await buildRunSummary(nodeFs, posix(extra));
  assert.deepEqual(e.document.tasks[0].repeats.map((r) => r.repeat), [0]);
  assert.ok(e.problems.some((p) => p.code === 'row-not-selected'));
});

function row(taskId: string, index: number, repeat: number, logsDir: string | null): string {
  return JSON.stringify({ _ng_task_id: { taskset: 't', task_id: taskId }, _ng_task_index: index, _ng_rollout_index: repeat,
    reward: 1.0, mask_sample: false, failure_kind: null, failure_reason: null, verifier_logs_dir: logsDir, verifier_mode: 'shared' });
}

test('rule 6: relative to the summary folder with .., a link\'s folders resolved but its own name kept, missing paths listed', async () => {
  assert.equal(relativePath('/a/b', '/a/b'), '.');
  assert.equal(relativePath('/a/b', '/a/b/c/d.txt'), 'c/d.txt');
  assert.equal(relativePath('/a/b', '/c'), '../../c');
  assert.equal(relativePath('C:/x', 'D:/y'), 'D:/y');
  assert.equal(relativePath('C:/x/y', 'c:/x/z'), '../z');

  const dir = posix(tmpDir('rule6'));
  fs.mkdirSync(`${dir}/a/b`, { recursive: true });
  fs.mkdirSync(`${dir}/v/s1`, { recursive: true });
  fs.writeFileSync(`${dir}/v/s1/test-stdout.txt`, 'ok');
  fs.mkdirSync(`${dir}/real/s2`, { recursive: true });
  fs.writeFileSync(`${dir}/real/s2/test-stdout.txt`, 'ok');
  fs.symlinkSync(`${dir}/real/s2`, `${dir}/v/link`);
  fs.symlinkSync(`${dir}/a`, `${dir}/alias`);
  fs.symlinkSync(`${dir}/v`, `${dir}/vlink`);
  fs.writeFileSync(`${dir}/a/b/r.jsonl`, [row('x', 0, 0, `${dir}/v/s1`), row('x', 0, 1, `${dir}/v/link`), row('x', 0, 2, `${dir}/v/gone`),
    row('x', 0, 3, `${dir}/vlink/s1`)].join('\n') + '\n');
  for (const asked of [`${dir}/a/b/r.jsonl`, `${dir}/alias/b/r.jsonl`]) {
    const { document, problems } = await buildRunSummary(nodeFs, asked);
    const [r0, r1, r2, r3] = document.tasks[0].repeats;
    // A folder reached through a linked parent: the parent is resolved.
    assert.equal(r3.verifier_logs, '../../v/s1');
    assert.equal(r3.test_stdout, '../../v/s1/test-stdout.txt');
    assert.equal(r0.verifier_logs, '../../v/s1');
    assert.equal(r0.test_stdout, '../../v/s1/test-stdout.txt');
    assert.equal(r1.verifier_logs, '../../v/link');
    // What the folder holds is named under the folder as located: the link keeps its name there too.
    assert.equal(r1.test_stdout, '../../v/link/test-stdout.txt');
    assert.equal(r2.verifier_logs, null);
    assert.deepEqual(r2.missing, ['../../v/gone']);
    assert.deepEqual(document.missing_paths, ['../../v/gone']);
    assert.equal(document.files.rollouts, 'r.jsonl');
    assert.ok(problems.some((p) => p.code === 'missing-path' && p.jsonPath?.[0] === 'missing_paths'));
  }
});

test('rule 7: no folder named → all null, nothing missing; gone → missing; absent optional files → nothing', async () => {
  const dir = tmpDir('rule7');
  const rollouts = buildRun(dir, {
    tasks: [{ id: 'a', repeats: [
      { outcome: 'scored', folder: 'none' },
      { outcome: 'scored', folder: 'absent' },
      { outcome: 'scored', files: ['test-stdout.txt'] },
      { outcome: 'masked', folder: 'present', files: ['test-stdout.txt', 'trajectory.json'] },
    ] }],
  });
  const { document } = await buildRunSummary(nodeFs, posix(rollouts));
  const paths = document.tasks[0].repeats.map((r) => ({
    verifier_logs: r.verifier_logs, test_stdout: r.test_stdout, reward_file: r.reward_file, trajectory: r.trajectory,
    artifacts: r.artifacts, missing: r.missing,
  }));
  assert.deepEqual(paths, [
    { ...NULL_PATHS, missing: [] },
    { ...NULL_PATHS, missing: ['verifier/s-0-1'] },
    { ...NULL_PATHS, verifier_logs: 'verifier/s-0-2', test_stdout: 'verifier/s-0-2/test-stdout.txt', missing: [] },
    { ...NULL_PATHS, verifier_logs: 'verifier/s-0-3', test_stdout: 'verifier/s-0-3/test-stdout.txt', trajectory: 'verifier/s-0-3/trajectory.json', missing: [] },
  ]);
  assert.deepEqual(document.missing_paths, ['verifier/s-0-1']);
  assert.deepEqual(document.tasks[0].repeats[0].input, inputEntry({ id: 'a', repeats: [] }));
  assert.equal(digestOf('a'), 'd-a');
});

test('rule 6: a sibling folder whose name starts with the summary folder\'s is reached with .., not as a subfolder', async () => {
  assert.equal(relativePath('/w/out', '/w/out-logs/s1'), '../out-logs/s1');
  assert.equal(relativePath('/w/out', '/w/outer'), '../outer');
  assert.equal(relativePath('/w/out', '/w/out/s1'), 's1');

  const dir = posix(tmpDir('sibling'));
  fs.mkdirSync(`${dir}/out`, { recursive: true });
  fs.mkdirSync(`${dir}/out-logs/s1`, { recursive: true });
  fs.writeFileSync(`${dir}/out-logs/s1/test-stdout.txt`, 'ok');
  fs.writeFileSync(`${dir}/out/r.jsonl`, [row('x', 0, 0, `${dir}/out-logs/s1`), row('x', 0, 1, `${dir}/out-logs/gone`)].join('\n') + '\n');
  const { document } = await buildRunSummary(nodeFs, `${dir}/out/r.jsonl`);
  const [r0, r1] = document.tasks[0].repeats;
  assert.equal(r0.verifier_logs, '../out-logs/s1');
  assert.equal(r0.test_stdout, '../out-logs/s1/test-stdout.txt');
  assert.deepEqual(r1.missing, ['../out-logs/gone']);
  assert.deepEqual(document.missing_paths, ['../out-logs/gone']);
});

test('rule 6: a gone folder named by several repeats is listed once in missing_paths, with one problem', async () => {
  const dir = posix(tmpDir('dedup'));
  fs.mkdirSync(`${dir}/v/s1`, { recursive: true });
  fs.writeFileSync(`${dir}/v/s1/test-stdout.txt`, 'ok');
  fs.writeFileSync(`${dir}/r.jsonl`, [
    row('x', 0, 0, `${dir}/v/gone`), row('x', 0, 1, `${dir}/v/gone`), row('y', 1, 0, `${dir}/v/gone`),
    row('y', 1, 1, `${dir}/v/other`), row('y', 1, 2, `${dir}/v/s1`),
  ].join('\n') + '\n');
  const { document, problems } = await buildRunSummary(nodeFs, `${dir}/r.jsonl`);
  // Each repeat still names what it misses; the run's list has each gone path once, in first-seen order.
  assert.deepEqual(document.tasks.flatMap((t) => t.repeats.map((r) => r.missing)),
    [['v/gone'], ['v/gone'], ['v/gone'], ['v/other'], []]);
  assert.deepEqual(document.missing_paths, ['v/gone', 'v/other']);
  const missing = problems.filter((p) => p.code === 'missing-path');
  assert.deepEqual(missing.map((p) => p.jsonPath), [['missing_paths', 0], ['missing_paths', 1]]);
  assert.match(missing[0].message, /task x repeat 0 names v\/gone/);
  assert.match(missing[1].message, /task y repeat 1 names v\/other/);
});
