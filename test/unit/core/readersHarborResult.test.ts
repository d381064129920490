// A Harbor trial's result.json and config.json as the reader takes them (src/core/readers/harbor/trialResult.ts),
// called on files held in memory: what an absent, unparsable, wrongly typed or good result says about the attempt
// while the job runs and once it ended, and what a config.json that cannot be used reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FileRead } from '../../../src/core/fs/port';
import { needsConfigFile, readConfig, readResult } from '../../../src/core/readers/harbor/trialResult';
import type { TrialFiles } from '../../../src/core/readers/harbor/trialFiles';

const dir = '/jobs/j/t__1';

function trial(files: Record<string, FileRead | string>): TrialFiles {
  const map = new Map<string, FileRead>();
  for (const [k, v] of Object.entries(files)) map.set(k, typeof v === 'string' ? { text: v } : v);
  return { name: 't__1', dir, dirs: new Map(), files: map, stats: new Map() };
}

const goodResult = {
  task_name: 'demo/a', trial_name: 't__1',
  config: { trial_name: 't__1', agent: { name: 'terminus-2', model_name: 'anthropic/claude-x' } },
  verifier_result: { rewards: { reward: 1 } },
  exception_info: null,
};

test('no result.json: running while the job runs, incomplete once it ended; nothing else said', () => {
  for (const [finished, outcome] of [[false, 'running'], [true, 'incomplete']] as const) {
    const r = readResult(trial({}), finished);
    assert.deepEqual(r, {
      state: 'absent', result: null, rawTaskName: null, problems: [],
      attempt: { outcome, reward: null, evidence: [], missing: [] },
    });
    assert.equal(needsConfigFile(r), true);
  }
});

test('a result.json that does not parse: a warning while the job runs (being written), an error and an InvalidResult once it ended', () => {
  const text = '{\n  "task_name": "demo/a",\n  "verifier_result": oops\n}';
  const running = readResult(trial({ 'result.json': text }), false);
  assert.equal(running.state, 'bad-json');
  assert.equal(running.result, null);
  assert.equal(running.attempt.outcome, 'running');
  assert.equal(running.attempt.exception, undefined);
  assert.ok(running.problems.length > 0);
  for (const p of running.problems) {
    assert.equal(p.severity, 'warning');
    assert.equal(p.file, `${dir}/result.json`);
  }
  assert.equal(running.problems[0].code, 'parse-error');
  assert.equal(running.problems[0].line, 3);

  const ended = readResult(trial({ 'result.json': text }), true);
  assert.equal(ended.state, 'bad-json');
  assert.equal(ended.attempt.outcome, 'infra-error');
  assert.deepEqual(ended.attempt.exception, { type: 'InvalidResult', message: 'result.json is not valid JSON', where: 'trial' });
  assert.deepEqual(ended.problems.map((p) => [p.severity, p.code]), running.problems.map((p) => ['error', p.code]));
  assert.equal(ended.attempt.reward, null);
  assert.equal(needsConfigFile(ended), true);
});

test('a result.json that cannot be read names the trial result in its problem', () => {
  const gone = readResult(trial({ 'result.json': { missing: true } }), true);
  assert.equal(gone.state, 'bad-json');
  assert.deepEqual(gone.problems, [{ file: `${dir}/result.json`, severity: 'error', code: 'missing-file', message: 'the trial result is not on disk' }]);
  const big = readResult(trial({ 'result.json': { tooBig: 20 << 20 } }), false);
  assert.equal(big.problems[0].code, 'too-big');
  assert.equal(big.problems[0].severity, 'warning');
  assert.match(big.problems[0].message, /^the trial result is 20\.0 MiB/);
});

test('a good result: outcome, reward and the result kept; parse notes (a duplicate key) are passed on', () => {
  const files = trial({ 'result.json': JSON.stringify(goodResult) });
  const ok = readResult(files, true);
  assert.equal(files.files.has('result.json'), false, 'the text let go once parsed');
  assert.equal(ok.state, 'ok');
  assert.equal(ok.result?.task_name, 'demo/a');
  assert.equal(ok.rawTaskName, null);
  assert.equal(ok.attempt.outcome, 'passed');
  assert.equal(ok.attempt.reward, 1);
  assert.deepEqual(ok.attempt.rewards, { reward: 1 });
  assert.deepEqual(ok.problems, []);
  assert.equal(needsConfigFile(ok), false, 'the result records the config');
  const noConfig = readResult(trial({ 'result.json': JSON.stringify({ ...goodResult, config: null }) }), true);
  assert.equal(needsConfigFile(noConfig), true);
  const dup = readResult(trial({ 'result.json': JSON.stringify(goodResult).replace('{', '{"task_name": "demo/b",') }), true);
  assert.equal(dup.state, 'ok');
  assert.ok(dup.problems.some((p) => p.code === 'duplicate-key'), JSON.stringify(dup.problems));
});

test('a result with a field of the wrong type: invalid, scored as nothing, the task name kept when it is a string', () => {
  const text = JSON.stringify({ ...goodResult, verifier_result: { rewards: { reward: 'high' } } }, null, 2);
  for (const finished of [false, true]) {
    const r = readResult(trial({ 'result.json': text }), finished);
    assert.equal(r.state, 'invalid');
    assert.equal(r.result, null);
    assert.equal(r.rawTaskName, 'demo/a');
    assert.equal(r.attempt.outcome, 'infra-error');
    assert.equal(r.attempt.reward, null);
    assert.equal(r.attempt.exception?.type, 'InvalidResult');
    assert.equal(r.attempt.exception?.where, 'trial');
    assert.match(r.attempt.exception?.message ?? '', /^result\.json has a field of the wrong type: .*verifier_result\.rewards\.reward/);
    assert.equal(r.problems.length, 1);
    const [p] = r.problems;
    assert.equal(p.code, 'invalid-result');
    assert.equal(p.severity, 'error');
    assert.equal(p.file, `${dir}/result.json`);
    assert.deepEqual(p.jsonPath, ['verifier_result', 'rewards', 'reward']);
    assert.equal(p.line, text.split('\n').findIndex((l) => l.includes('"high"')) + 1, 'placed at the offending value');
    assert.match(p.message, /^trial t__1: result\.json cannot be trusted to score \(.*verifier_result\.rewards\.reward.*\)$/);
  }
  const numberName = readResult(trial({ 'result.json': JSON.stringify({ ...goodResult, task_name: 7 }) }), true);
  assert.equal(numberName.state, 'invalid');
  assert.equal(numberName.rawTaskName, null, 'a task name that is not a string is not used');
});

test('a result that is not an object: invalid at the top level, no task name; `null` too', () => {
  const arr = readResult(trial({ 'result.json': '[1, 2]' }), true);
  assert.equal(arr.state, 'invalid');
  assert.equal(arr.rawTaskName, null);
  assert.equal(arr.attempt.outcome, 'infra-error');
  assert.deepEqual(arr.problems.map((p) => [p.code, p.jsonPath, p.message]),
    [['invalid-result', [], 'trial t__1: result.json cannot be trusted to score (result is not a JSON object)']]);
  const str = readResult(trial({ 'result.json': '"demo/a"' }), true);
  assert.equal(str.rawTaskName, null);
  assert.equal(str.problems[0].message, 'trial t__1: result.json cannot be trusted to score (result is not a JSON object)');
  const nul = readResult(trial({ 'result.json': 'null' }), true);
  assert.equal(nul.state, 'invalid');
  assert.equal(nul.rawTaskName, null);
  assert.equal(nul.attempt.exception, undefined);
  assert.deepEqual(nul.problems.map((p) => [p.code, p.severity, p.jsonPath, p.message]),
    [['invalid-result', 'error', [], 'trial t__1: result.json cannot be trusted to score (wrong types)']]);
});

test('config.json: absent, unparsable, wrongly typed (at most five issues listed), good', () => {
  assert.deepEqual(readConfig(trial({})), { config: null, problems: [] });
  const bad = readConfig(trial({ 'config.json': '{"trial_name": ' }));
  assert.equal(bad.config, null);
  assert.equal(bad.problems.length, 1);
  assert.equal(bad.problems[0].code, 'parse-error');
  assert.equal(bad.problems[0].file, `${dir}/config.json`);
  const gone = readConfig(trial({ 'config.json': { missing: true } }));
  assert.deepEqual(gone.problems, [{ file: `${dir}/config.json`, severity: 'warning', code: 'missing-file', message: 'the trial config is not on disk' }]);

  const wrong = readConfig(trial({ 'config.json': JSON.stringify({ trial_name: 5, trials_dir: 6, install_only: 'no', timeout_multiplier: 'x', job_id: 3, agent: 'terminus' }) }));
  assert.equal(wrong.config, null);
  const schema = wrong.problems.filter((p) => p.code === 'schema');
  assert.equal(schema.length, 5);
  for (const p of schema) assert.match(p.message, /^trial config\.json \.\w+: /);
  assert.deepEqual(wrong.problems.filter((p) => p.code === 'more-problems').map((p) => p.message),
    [`1 more schema problems in ${dir}/config.json not listed`]);

  const dupText = JSON.stringify({ trial_name: 't__1', agent: { name: 'terminus-2' } }).replace('{', '{"trial_name": "x",');
  const good = readConfig(trial({ 'config.json': dupText }));
  assert.equal(good.config?.trial_name, 't__1');
  assert.equal(good.config?.agent?.name, 'terminus-2');
  assert.deepEqual(good.problems.map((p) => p.code), ['duplicate-key'], 'what parsing said is kept');
  const wrongDup = readConfig(trial({ 'config.json': JSON.stringify({ trial_name: 5 }).replace('{', '{"job_id": "a", "job_id": "b",') }));
  assert.deepEqual(wrongDup.problems.map((p) => p.code), ['duplicate-key', 'schema']);
});

test('a result.json holding null: running while the job runs, incomplete once it ended', () => {
  assert.equal(readResult(trial({ 'result.json': 'null' }), false).attempt.outcome, 'running');
  assert.equal(readResult(trial({ 'result.json': 'null' }), true).attempt.outcome, 'incomplete');
});
