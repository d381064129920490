// One Harbor trial folder as the job reader makes it an attempt (src/core/readers/harbor/trial.ts, trialBatch.ts):
// the agent and model of its cell when the result or config leaves them out, the task when nothing names it, the
// trial's own files as evidence, a result that names another trial, and a multi-step trial's steps (a step folder
// the result lists but that is not on disk, each step's reward files against its own verifier's start).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { Attempt, Run } from '../../../src/core/model';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { attemptsOf, byTrial, harborScratch } from './harborScratch';

const node = new NodeFs();
const { root: tmpRoot, next, write, job } = harborScratch('hr-harbor-trial-');

test('the cell: the agent from agent_info, else the config\'s name, else "oracle" unless imported; the model from the config, else provider/name', async () => {
  const j = job();
  const base = { task_name: 'demo/t', verifier_result: { rewards: { reward: 1 } } };
  write(`${j}/a__1/result.json`, { ...base, trial_name: 'a__1', config: { agent: { model_name: 'm/x' } } });
  write(`${j}/b__1/result.json`, { ...base, trial_name: 'b__1', config: { agent: { import_path: 'my.mod:Agent', model_name: 'm/b' } } });
  write(`${j}/h__1/result.json`, { ...base, trial_name: 'h__1', agent_info: { name: 'h-agent', model_info: { name: 'solo' } } });
  write(`${j}/c__1/result.json`, { ...base, trial_name: 'c__1', agent_info: { name: 'terminus-2', model_info: { name: 'claude-x', provider: 'anthropic' } } });
  write(`${j}/d__1/result.json`, { ...base, trial_name: 'd__1', config: { agent: { name: 'cfg-agent', model_name: 'cfg/model' } }, agent_info: { name: 'info-agent', model_info: { name: 'n', provider: 'p' } } });
  write(`${j}/e__1/result.json`, { ...base, trial_name: 'e__1' });
  write(`${j}/f__1/config.json`, { trial_name: 'f__1', agent: { name: 'from-config', model_name: 'cfg/m' } });
  write(`${j}/g__1/config.json`, { trial_name: 'g__1', agent: {} });
  const a = byTrial(await readHarborJob(node, j));
  assert.equal(a.a__1.cell, 'oracle|m/x');
  assert.equal(a.b__1.cell, '?|m/b');
  assert.equal(a.h__1.cell, 'h-agent|solo');
  assert.equal(a.c__1.cell, 'terminus-2|anthropic/claude-x');
  assert.equal(a.d__1.cell, 'info-agent|cfg/model');
  assert.equal(a.e__1.cell, '?|?');
  assert.equal(a.f__1.cell, 'from-config|cfg/m');
  assert.equal(a.g__1.cell, 'oracle|?');
});

test('the task: the result\'s task_name, else the config\'s task name or the last segment of its path, else the folder name before "__"', async () => {
  const j = job(false);
  write(`${j}/x__1/config.json`, { trial_name: 'x__1', task: { path: 'tasks/deep/fix-git' } });
  write(`${j}/y__1/config.json`, { trial_name: 'y__1', task: { name: 'named/task', path: 'ignored/p' } });
  write(`${j}/regex__log__Ab1/config.json`, { trial_name: 'regex__log__Ab1' });
  write(`${j}/plain/config.json`, { trial_name: 'plain' });
  write(`${j}/z__1/config.json`, { trial_name: 'z__1', task: { source: 'cfg-dataset' } });
  const run = await readHarborJob(node, j);
  assert.deepEqual(run.tasks.map((t) => [t.id, t.attempts.map((x) => x.details?.trial)]), [
    ['fix-git', ['x__1']], ['named/task', ['y__1']], ['plain', ['plain']], ['regex__log', ['regex__log__Ab1']], ['z', ['z__1']],
  ]);
  assert.equal(byTrial(run).z__1.cell, '?|?', 'no agent in the config: no name for it');
  assert.equal(run.identity.dataset, 'cfg-dataset', 'the dataset from the config\'s task source');
  for (const a of attemptsOf(run)) assert.equal(a.outcome, 'running');
});

test('the trial\'s own files: lock.json, trial.log, user-agent/, exception.txt present or named missing by the result\'s exception', async () => {
  const j = job();
  const t = `${j}/t__1`;
  const result = {
    task_name: 'demo/t', trial_name: 't__1', config: { agent: { name: 'oracle' } },
    exception_info: { exception_type: 'AgentTimeoutError', exception_message: 'late' },
  };
  write(`${t}/result.json`, result);
  write(`${t}/lock.json`, '{}');
  write(`${t}/trial.log`, 'log');
  fs.mkdirSync(`${t}/user-agent`, { recursive: true });
  const u = `${j}/u__1`;
  write(`${u}/result.json`, { ...result, trial_name: 'u__1' });
  write(`${u}/exception.txt`, 'Traceback');
  fs.mkdirSync(`${u}/trial.log`, { recursive: true });
  write(`${u}/user-agent`, 'a file');
  const a = byTrial(await readHarborJob(node, j));
  const ev = (x: Attempt) => x.evidence.filter((e) => e.kind !== 'step').map((e) => [e.kind, e.label, e.present, e.isDir]);
  assert.deepEqual(ev(a.t__1).slice(0, 5), [
    ['result', 'result.json', true, false],
    ['config', 'lock.json', true, false],
    ['trial-log', 'trial.log', true, false],
    ['agent-logs', 'user-agent/', true, true],
    ['exception', 'exception.txt', false, false],
  ]);
  const missing = a.t__1.evidence.find((e) => e.label === 'exception.txt');
  assert.equal(missing?.namedBy, 'result.json records AgentTimeoutError');
  assert.equal(missing?.path, `${t}/exception.txt`);
  assert.ok(a.t__1.missing.includes(`${t}/exception.txt`));
  assert.deepEqual(ev(a.u__1).slice(0, 2), [['result', 'result.json', true, false], ['exception', 'exception.txt', true, false]]);
  assert.deepEqual(a.u__1.missing.filter((p) => p.endsWith('exception.txt')), []);
});

test('a result that names another trial: a name-mismatch warning; its id, agent version and verifier mode kept as details', async () => {
  const j = job();
  write(`${j}/here__1/result.json`, {
    id: 'tid', task_name: 'demo/t', trial_name: 'there__1', agent_info: { name: 'terminus-2', version: '2.1' },
    verifier_environment_mode: 'separate', trial_uri: `file://${j}/here__1`,
    agent_result: { n_cache_tokens: 5, metadata: { n_episodes: 'many' } },
  });
  write(`${j}/same__1/result.json`, { task_name: 'demo/t', trial_name: 'same__1', agent_result: { n_output_tokens: 7 } });
  const run = await readHarborJob(node, j);
  const a = byTrial(run);
  const here = a.there__1;
  assert.deepEqual(here.details, { trial: 'there__1', trialId: 'tid', agentVersion: '2.1', verifierMode: 'separate' });
  assert.deepEqual(here.tokens, { input: null, cached: 5, output: null });
  assert.equal(here.nTurns, undefined);
  assert.deepEqual(a.same__1.tokens, { input: null, cached: null, output: 7 });
  assert.deepEqual(run.problems.filter((p) => p.code === 'name-mismatch').map((p) => [p.file, p.severity, p.message]),
    [[`${j}/here__1/result.json`, 'warning', 'trial here__1: result.json names trial there__1, but it is in folder here__1']]);
});

test('steps: a step the result lists but that is not on disk; each step\'s reward files checked against its own verifier\'s start', async () => {
  const j = job();
  const t = `${j}/ms__1`;
  const step = (name: string, verifierStart: string) => ({
    step_name: name, agent_result: { n_input_tokens: 1 }, verifier_result: { rewards: { reward: 1 } }, exception_info: null,
    verifier: { started_at: verifierStart, finished_at: '2026-08-21T12:30:00Z' },
  });
  write(`${t}/result.json`, {
    task_name: 'demo/ms', trial_name: 'ms__1', config: { agent: { name: 'oracle' } },
    verifier_result: { rewards: { reward: 1 } },
    step_results: [step('one', '2026-08-21T12:00:00Z'), step('two', '2026-08-21T12:20:00Z'), step('gone', '2026-08-21T12:00:00Z')],
  });
  for (const s of ['one', 'two']) write(`${t}/steps/${s}/verifier/reward.txt`, '1');
  // Both reward files written at 12:10: after step one's verifier started, before step two's.
  const at = new Date('2026-08-21T12:10:00Z');
  for (const s of ['one', 'two']) fs.utimesSync(`${t}/steps/${s}/verifier/reward.txt`, at, at);
  const a = attemptsOf(await readHarborJob(node, j))[0];
  const steps = a.evidence.filter((e) => e.kind === 'step');
  assert.deepEqual(steps.map((s) => [s.label, s.present, s.namedBy, s.path, s.isDir]), [
    ['steps/one/', true, undefined, `${t}/steps/one`, true],
    ['steps/two/', true, undefined, `${t}/steps/two`, true],
    ['steps/gone/', false, 'result.json lists this step', `${t}/steps/gone`, true],
  ]);
  assert.deepEqual((a.provenance ?? []).map((p) => [p.code, p.file]), [['reward-before-verifier', `${t}/steps/two/verifier/reward.txt`]]);
  assert.equal(a.rewardMethod, 'reward.txt');
});
