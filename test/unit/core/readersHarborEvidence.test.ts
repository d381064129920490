// The evidence of a Harbor trial (src/core/readers/harbor/evidence.ts, trial.ts, trialFiles.ts, trialBatch.ts,
// paths.ts, provenance.ts): what is said of a file that is missing or is something else, continuations in order, a
// verifier folder's reward details and provenance warnings, an artifact manifest's failed entries, the files at the
// top of a trial, and a multi-step trial's steps (those on disk but not in the result, each step's agent, verifier
// and artifacts, each step's own verifier start), the reward method, and the file:// URIs Harbor records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import type { Attempt, Evidence, RewardProvenance, Run } from '../../../src/core/model';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import {
  EvidenceList, agentEvidence, artifactsEvidence, listDir, verifierEvidence, writesTrajectory,
} from '../../../src/core/readers/harbor/evidence';
import { fileUriToPath, trimDir } from '../../../src/core/readers/harbor/paths';
import { provenanceFromFiles } from '../../../src/core/readers/harbor/provenance';
import { parseJsonDocument } from '../../../src/core/readers/jsonFile';
import { attemptsOf, byTrial, harborScratch } from './harborScratch';

const node = new NodeFs();
const { root: tmpRoot, next, write, job } = harborScratch('hr-harbor-evidence-');
const row = (e: Evidence) => [e.kind, e.label, e.present, e.isDir, e.namedBy];

test('EvidenceList.absent: missing, a folder, or not a regular file, each with its own problem; isDir defaults to false', () => {
  const l = new EvidenceList('trial t__1');
  l.absent('trajectory', 'trajectory.json', '/j/t__1/agent/trajectory.json', 'the agent ran');
  l.absent('result', 'result.json', '/j/t__1/result.json', 'a trial keeps its result there', false, 'dir');
  l.absent('exception', 'exception.txt', '/j/t__1/exception.txt', 'result.json records X', false, 'other');
  l.absent('agent-logs', 'agent/', '/j/t__1/agent', 'the agent ran', true, 'dir');
  l.absent('reward-file', 'reward.txt', '/j/t__1/verifier/reward.txt', 'the verifier ran', false, 'file');
  assert.deepEqual(l.evidence.map(row), [
    ['trajectory', 'trajectory.json', false, false, 'the agent ran'],
    ['result', 'result.json', false, false, 'a trial keeps its result there'],
    ['exception', 'exception.txt', false, false, 'result.json records X'],
    ['agent-logs', 'agent/', false, true, 'the agent ran'],
    ['reward-file', 'reward.txt', false, false, 'the verifier ran'],
  ]);
  assert.deepEqual(l.missing, ['/j/t__1/agent/trajectory.json', '/j/t__1/result.json', '/j/t__1/exception.txt', '/j/t__1/agent', '/j/t__1/verifier/reward.txt']);
  assert.deepEqual(l.problems, [
    { file: '/j/t__1/agent/trajectory.json', severity: 'warning', code: 'missing-path', message: 'trial t__1: trajectory.json is missing (the agent ran)' },
    { file: '/j/t__1/result.json', severity: 'warning', code: 'not-a-file', message: 'trial t__1: result.json is there but is a folder, so it was not read (a trial keeps its result there)' },
    { file: '/j/t__1/exception.txt', severity: 'warning', code: 'not-a-file', message: 'trial t__1: exception.txt is there but is not a regular file (a FIFO, a device, a socket or a broken link), so it was not read (result.json records X)' },
    { file: '/j/t__1/agent', severity: 'warning', code: 'missing-path', message: 'trial t__1: agent/ is missing (the agent ran)' },
    { file: '/j/t__1/verifier/reward.txt', severity: 'warning', code: 'missing-path', message: 'trial t__1: reward.txt is missing (the verifier ran)' },
  ]);
  const p = new EvidenceList('x');
  assert.equal(p.present('trajectory', 'trajectory.json', '/t').isDir, false);
});

test('listDir: a folder that cannot be listed is an empty listing', async () => {
  const failing = { readDir: async () => { throw new Error('EACCES'); } } as unknown as FsPort;
  assert.deepEqual([...(await listDir(failing, '/nope'))], []);
  const d = `${tmpRoot}/list-${next()}`;
  write(`${d}/a.txt`, 'a');
  fs.mkdirSync(`${d}/sub`);
  assert.deepEqual([...(await listDir(node, d))].sort(), [['a.txt', 'file'], ['sub', 'dir']]);
});

test('writesTrajectory: no agent writes none; the non-ATIF agents by any case and with _ for -', () => {
  assert.equal(writesTrajectory(null), false);
  assert.equal(writesTrajectory(undefined), false);
  assert.equal(writesTrajectory(''), false);
  assert.equal(writesTrajectory('Kimi_Code'), false);
  assert.equal(writesTrajectory('ORACLE'), false);
  assert.equal(writesTrajectory('terminus-2'), true);
});

test('agentEvidence: continuations in number order, files only; a trajectory.json that is a folder is not-a-file', () => {
  const l = new EvidenceList('trial a__1');
  const entries = new Map([
    ['trajectory.cont-10.json', 'file'], ['trajectory.cont-2.json', 'file'], ['trajectory.cont-1.json', 'file'],
    ['trajectory.cont-3.json', 'dir'], ['trajectory.cont-x.json', 'file'], ['trajectory.json', 'dir'],
  ] as const);
  agentEvidence(l, '/j/a__1/agent', new Map(entries), 'agent terminus-2 ran and writes an ATIF trajectory');
  assert.deepEqual(l.evidence.map((e) => [e.kind, e.label, e.present, e.path]), [
    ['agent-logs', 'agent/', true, '/j/a__1/agent'],
    ['trajectory', 'trajectory.json', false, '/j/a__1/agent/trajectory.json'],
    ['trajectory', 'trajectory.cont-1.json', true, '/j/a__1/agent/trajectory.cont-1.json'],
    ['trajectory', 'trajectory.cont-2.json', true, '/j/a__1/agent/trajectory.cont-2.json'],
    ['trajectory', 'trajectory.cont-10.json', true, '/j/a__1/agent/trajectory.cont-10.json'],
  ]);
  assert.deepEqual(l.problems.map((p) => [p.code, p.message]), [
    ['not-a-file', 'trial a__1: trajectory.json is there but is a folder, so it was not read (agent terminus-2 ran and writes an ATIF trajectory)'],
  ]);
});

test('verifierEvidence: reward-details.json, an expected reward file that is a folder, provenance warnings (not infos) as problems', () => {
  const l = new EvidenceList('trial v__1');
  const entries = new Map([['reward-details.json', 'file'], ['reward.json', 'dir'], ['test-stderr.txt', 'file']] as const);
  const prov: RewardProvenance[] = [
    { code: 'reward-before-verifier', severity: 'warning' as const, file: '/j/v__1/verifier/reward.txt', message: 'reward.txt was last written before' },
    { code: 'reward-details', severity: 'info' as const, file: '/j/v__1/verifier/reward-details.json', message: 'details' },
  ];
  verifierEvidence(l, '/j/v__1/verifier', new Map(entries), { why: 'the verifier ran', file: 'reward.json' }, undefined, prov);
  assert.deepEqual(l.evidence.map(row), [
    ['verifier-logs', 'verifier/', true, true, undefined],
    ['test-stdout', 'test-stderr.txt', true, false, undefined],
    ['reward-file', 'reward.json', false, false, 'the verifier ran'],
    ['verifier-logs', 'reward-details.json', true, false, undefined],
  ]);
  assert.equal(l.evidence[3].path, '/j/v__1/verifier/reward-details.json');
  assert.deepEqual(l.provenance, prov);
  assert.deepEqual(l.problems, [
    { file: '/j/v__1/verifier/reward.json', severity: 'warning', code: 'not-a-file', message: 'trial v__1: reward.json is there but is a folder, so it was not read (the verifier ran)' },
    { file: '/j/v__1/verifier/reward.txt', severity: 'warning', code: 'reward-before-verifier', message: 'trial v__1: reward.txt was last written before' },
  ]);
  const bare = new EvidenceList('trial w__1');
  verifierEvidence(bare, '/j/w__1/verifier', new Map([['reward.txt', 'file']] as const), null, undefined);
  assert.deepEqual(bare.provenance, []);
  assert.deepEqual(bare.problems, []);
});

test('artifactsEvidence: failed entries are infos naming the source and service; a manifest of the wrong shape is a schema problem', () => {
  const entries = () => new Map([['manifest.json', 'file']] as const);
  const l = new EvidenceList('trial m__1');
  const doc = parseJsonDocument('/j/m__1/artifacts/manifest.json', JSON.stringify([
    { source: '/logs/app', destination: 'artifacts/logs', type: 'directory', status: 'failed', service: 'db' },
    { source: '/tmp/out.txt', destination: 'artifacts/out.txt', type: 'file', status: 'failed' },
    { source: '/ok', destination: 'artifacts/ok', type: 'file', status: 'ok' },
  ]), 'artifact manifest');
  artifactsEvidence(l, '/j/m__1/artifacts', entries(), doc);
  assert.deepEqual(l.evidence.map((e) => [e.label, e.path]), [['artifacts/', '/j/m__1/artifacts'], ['manifest.json', '/j/m__1/artifacts/manifest.json']]);
  assert.deepEqual(l.problems, [
    { file: '/j/m__1/artifacts/manifest.json', severity: 'info', code: 'artifact-failed', message: 'artifact /logs/app (service db) could not be collected' },
    { file: '/j/m__1/artifacts/manifest.json', severity: 'info', code: 'artifact-failed', message: 'artifact /tmp/out.txt could not be collected' },
  ]);
  const bad = new EvidenceList('trial n__1');
  artifactsEvidence(bad, '/j/n__1/artifacts', entries(), parseJsonDocument('/j/n__1/artifacts/manifest.json', '{"source": 1}', 'artifact manifest'));
  assert.equal(bad.problems.length, 1);
  assert.equal(bad.problems[0].file, '/j/n__1/artifacts/manifest.json');
  assert.match(bad.problems[0].message, /artifacts\/manifest\.json/);
});

test('the top of a trial: a result missing once the job finished, a result.json that is a folder while it runs, user-agent/, exception.txt', async () => {
  const j = job(true);
  write(`${j}/nores__1/config.json`, { trial_name: 'nores__1', agent: { name: 'oracle' } });
  write(`${j}/exc__1/result.json`, { task_name: 'demo/t', trial_name: 'exc__1', config: { agent: { name: 'oracle' } } });
  write(`${j}/exc__1/exception.txt`, 'Traceback');
  fs.mkdirSync(`${j}/exc__1/user-agent`, { recursive: true });
  const a = byTrial(await readHarborJob(node, j));
  assert.deepEqual(row(a.nores__1.evidence[0]), ['result', 'result.json', false, false, 'the job finished and this trial has no result']);
  assert.ok(a.nores__1.missing.includes(`${j}/nores__1/result.json`));
  const exc = a.exc__1.evidence.map((e) => [e.kind, e.label, e.present, e.isDir]);
  assert.deepEqual(exc.filter(([k]) => k === 'agent-logs' || k === 'exception'), [['agent-logs', 'user-agent/', true, true], ['exception', 'exception.txt', true, false]]);
  assert.deepEqual(a.exc__1.missing, []);

  const r = job(false);
  write(`${r}/dirres__1/config.json`, { trial_name: 'dirres__1', agent: { name: 'oracle' } });
  fs.mkdirSync(`${r}/dirres__1/result.json`, { recursive: true });
  const b = byTrial(await readHarborJob(node, r));
  assert.deepEqual(row(b.dirres__1.evidence[0]), ['result', 'result.json', false, false, 'a trial keeps its result there']);
});

test('the reward method: rewardkit when reward-details.json is there, else reward.json, else reward.txt', async () => {
  const j = job();
  const res = (name: string) => ({ task_name: 'demo/t', trial_name: name, config: { agent: { name: 'oracle' } }, verifier_result: { rewards: { reward: 1 } } });
  write(`${j}/kit__1/result.json`, res('kit__1'));
  write(`${j}/kit__1/verifier/reward.json`, '{"reward": 1}');
  write(`${j}/kit__1/verifier/reward-details.json`, '{}');
  write(`${j}/js__1/result.json`, res('js__1'));
  write(`${j}/js__1/verifier/reward.json`, '{"reward": 1}');
  write(`${j}/tx__1/result.json`, res('tx__1'));
  write(`${j}/tx__1/verifier/reward.txt`, '1');
  const a = byTrial(await readHarborJob(node, j));
  assert.equal(a.kit__1.rewardMethod, 'rewardkit');
  assert.equal(a.js__1.rewardMethod, 'reward.json');
  assert.equal(a.tx__1.rewardMethod, 'reward.txt');
});

test('steps: folders under steps/ the result does not list are steps too (files are not); each step\'s agent, verifier and artifacts', async () => {
  const j = job();
  const t = `${j}/ms__1`;
  write(`${t}/result.json`, {
    task_name: 'demo/ms', trial_name: 'ms__1', config: { agent: { name: 'terminus-2' } },
    step_results: [
      // The agent ran and the verifier finished (no verifier_result): a trajectory and reward.txt are expected.
      { step_name: 'build', agent_result: { n_input_tokens: 3 }, verifier: { finished_at: '2026-08-21T10:30:00Z' } },
      // Neither ran: nothing expected.
      { step_name: 'idle' },
      // The verifier's rewards name more than "reward": reward.json is the file expected.
      { step_name: 'score', verifier_result: { rewards: { reward: 1, style: 0.5 } } },
    ],
  });
  write(`${t}/steps/build/agent/command.txt`, 'make');
  fs.mkdirSync(`${t}/steps/idle`, { recursive: true });
  fs.mkdirSync(`${t}/steps/score/verifier`, { recursive: true });
  write(`${t}/steps/extra/agent/trajectory.json`, '{}');
  write(`${t}/steps/notes.txt`, 'not a step');
  write(`${t}/steps/build/verifier/ctrf.json`, { results: { tests: [{ name: 't1', status: 'failed', message: 'boom' }, { name: 't2', status: 'passed' }] } });
  write(`${t}/steps/build/artifacts/manifest.json`, [{ source: '/logs', destination: 'artifacts/logs', type: 'directory', status: 'failed' }]);
  const run = await readHarborJob(node, j);
  const a = attemptsOf(run)[0];
  const steps = a.evidence.filter((e) => e.kind === 'step');
  assert.deepEqual(steps.map((s) => [s.label, s.present]), [['steps/build/', true], ['steps/idle/', true], ['steps/score/', true], ['steps/extra/', true]]);
  const kids = (label: string) => (steps.find((s) => s.label === label)?.children ?? []).map((e) => [e.kind, e.label, e.present, e.path]);
  assert.deepEqual(kids('steps/build/'), [
    ['agent-logs', 'agent/', true, `${t}/steps/build/agent`],
    ['trajectory', 'trajectory.json', false, `${t}/steps/build/agent/trajectory.json`],
    ['verifier-logs', 'verifier/', true, `${t}/steps/build/verifier`],
    ['reward-file', 'reward.txt', false, `${t}/steps/build/verifier/reward.txt`],
    ['ctrf', 'ctrf.json', true, `${t}/steps/build/verifier/ctrf.json`],
    ['artifacts', 'artifacts/', true, `${t}/steps/build/artifacts`],
    ['artifacts', 'manifest.json', true, `${t}/steps/build/artifacts/manifest.json`],
  ]);
  const ctrf = steps[0].children?.find((e) => e.kind === 'ctrf');
  assert.deepEqual(ctrf?.failedTests, [{ name: 't1', message: 'boom' }]);
  assert.deepEqual(kids('steps/idle/'), []);
  // An empty verifier/ is not listed as there.
  assert.deepEqual(kids('steps/score/'), [
    ['reward-file', 'reward.json', false, `${t}/steps/score/verifier/reward.json`],
  ]);
  assert.deepEqual(kids('steps/extra/'), [
    ['agent-logs', 'agent/', true, `${t}/steps/extra/agent`],
    ['trajectory', 'trajectory.json', true, `${t}/steps/extra/agent/trajectory.json`],
  ]);
  assert.deepEqual(run.problems.filter((p) => p.file.includes('/steps/')).map((p) => [p.code, p.severity, p.message]), [
    ['missing-path', 'warning', 'trial ms__1 step build: trajectory.json is missing (agent terminus-2 ran and writes an ATIF trajectory)'],
    ['missing-path', 'warning', 'trial ms__1 step build: reward.txt is missing (the verifier ran)'],
    ['artifact-failed', 'info', 'artifact /logs could not be collected'],
    ['missing-path', 'warning', 'trial ms__1 step score: reward.json is missing (the verifier ran)'],
  ]);
});

test('steps without a result: the step folders on disk are read, nothing is expected of them', async () => {
  const j = job(false);
  const t = `${j}/pending__1`;
  write(`${t}/config.json`, { trial_name: 'pending__1', agent: { name: 'terminus-2' } });
  write(`${t}/steps/one/verifier/reward.txt`, '1');
  const a = attemptsOf(await readHarborJob(node, j))[0];
  const steps = a.evidence.filter((e) => e.kind === 'step');
  assert.deepEqual(steps.map((s) => [s.label, s.present, (s.children ?? []).map((c) => c.label)]), [['steps/one/', true, ['verifier/', 'reward.txt']]]);
  assert.deepEqual(a.missing, []);
});

test('a step\'s reward files are timed against its own verifier start, also when an earlier step has none', async () => {
  const j = job();
  const t = `${j}/st__1`;
  write(`${t}/result.json`, {
    task_name: 'demo/st', trial_name: 'st__1', config: { agent: { name: 'oracle' } },
    step_results: [
      { step_name: 'a', verifier_result: { rewards: { reward: 1 } } },
      { step_name: 'b', verifier_result: { rewards: { reward: 1 } }, verifier: { started_at: '2026-08-21T12:20:00Z', finished_at: '2026-08-21T12:30:00Z' } },
    ],
  });
  for (const s of ['a', 'b']) {
    write(`${t}/steps/${s}/verifier/reward.txt`, '1');
    const at = new Date('2026-08-21T12:10:00Z');
    fs.utimesSync(`${t}/steps/${s}/verifier/reward.txt`, at, at);
  }
  const a = attemptsOf(await readHarborJob(node, j))[0];
  assert.deepEqual((a.provenance ?? []).map((p) => [p.code, p.file]), [['reward-before-verifier', `${t}/steps/b/verifier/reward.txt`]]);
});

test('both reward files at the top, agreeing: no finding; disagreeing: reward-files-disagree', async () => {
  const j = job();
  for (const [name, txt] of [['same__1', '1'], ['diff__1', '0']] as const) {
    write(`${j}/${name}/result.json`, { task_name: 'demo/t', trial_name: name, config: { agent: { name: 'oracle' } }, verifier_result: { rewards: { reward: 1 } } });
    write(`${j}/${name}/verifier/reward.json`, '{"reward": 1}');
    write(`${j}/${name}/verifier/reward.txt`, txt);
  }
  const a = byTrial(await readHarborJob(node, j));
  assert.equal(a.same__1.provenance, undefined);
  assert.deepEqual((a.diff__1.provenance ?? []).map((p) => [p.code, p.file]), [['reward-files-disagree', `${j}/diff__1/verifier/reward.json`]]);
  // Read directly: the texts are handed over; a reward.json that is not JSON says "no number".
  const texts: Record<string, string> = { 'reward.json': '{"reward": 1}', 'reward.txt': '1' };
  const has = (n: string) => n in texts;
  assert.deepEqual(provenanceFromFiles('/v', has, null, (n) => ({ text: texts[n] })), []);
  texts['reward.json'] = '{not json';
  assert.deepEqual(provenanceFromFiles('/v', has, null, (n) => ({ text: texts[n] })).map((p) => p.message.slice(0, 44)),
    ['reward.json says no number and reward.txt sa']);
});

test('paths: trimDir keeps "/" for a root of slashes; file:// URIs that do not decode are none; a drive letter loses its slash', () => {
  assert.equal(trimDir('///'), '/');
  assert.equal(trimDir('/a/b//'), '/a/b');
  assert.equal(trimDir('/'), '/');
  assert.equal(fileUriToPath('file:///jobs/%E0%A4%A'), null);
  assert.equal(fileUriToPath('file:///C:/jobs/j/t__1/'), 'C:/jobs/j/t__1');
  assert.equal(fileUriToPath('file:///jobs/a%20b/'), '/jobs/a b');
  assert.equal(fileUriToPath('file://host/jobs'), null);
  assert.equal(fileUriToPath('http:///jobs'), null);
  assert.equal(fileUriToPath(null), null);
});

test('config.json is read only when the result does not carry the config: a broken one beside a full result says nothing', async () => {
  const j = job();
  write(`${j}/full__1/result.json`, { task_name: 'demo/t', trial_name: 'full__1', config: { agent: { name: 'oracle' } } });
  write(`${j}/full__1/config.json`, '{ not json');
  write(`${j}/bare__1/result.json`, { task_name: 'demo/t', trial_name: 'bare__1' });
  write(`${j}/bare__1/config.json`, '{ not json');
  const run = await readHarborJob(node, j);
  assert.deepEqual(run.problems.filter((p) => p.file.endsWith('config.json')).map((p) => p.file), [`${j}/bare__1/config.json`]);
});

test('the top of a trial, paths: user-agent/ and exception.txt where they are; an exception.txt that is a folder is not-a-file', async () => {
  const j = job();
  write(`${j}/ua__1/result.json`, { task_name: 'demo/t', trial_name: 'ua__1', config: { agent: { name: 'oracle' } } });
  write(`${j}/ua__1/exception.txt`, 'Traceback');
  write(`${j}/ua__1/user-agent/log.txt`, 'x');
  write(`${j}/exdir__1/result.json`, {
    task_name: 'demo/t', trial_name: 'exdir__1', config: { agent: { name: 'oracle' } },
    exception_info: { exception_type: 'RuntimeError', exception_message: 'boom', exception_traceback: '', occurred_at: '2026-08-21T10:10:00Z' },
  });
  fs.mkdirSync(`${j}/exdir__1/exception.txt`, { recursive: true });
  // A config.json that is a folder, beside a result without a config: not read, nothing said of it.
  write(`${j}/cfgdir__1/result.json`, { task_name: 'demo/t', trial_name: 'cfgdir__1' });
  fs.mkdirSync(`${j}/cfgdir__1/config.json`, { recursive: true });
  // A result without step_results beside a steps/ folder: the folder's steps are read, nothing expected of them.
  write(`${j}/st__1/result.json`, { task_name: 'demo/t', trial_name: 'st__1', config: { agent: { name: 'oracle' } } });
  write(`${j}/st__1/steps/one/verifier/reward.txt`, '1');
  const run = await readHarborJob(node, j);
  const a = byTrial(run);
  const at = (t: Attempt, label: string) => t.evidence.find((e) => e.label === label)?.path;
  assert.equal(at(a.ua__1, 'user-agent/'), `${j}/ua__1/user-agent`);
  assert.equal(at(a.ua__1, 'exception.txt'), `${j}/ua__1/exception.txt`);
  assert.deepEqual(run.problems.filter((p) => p.file === `${j}/exdir__1/exception.txt`).map((p) => [p.code, p.message]), [
    ['not-a-file', 'trial exdir__1: exception.txt is there but is a folder, so it was not read (result.json records RuntimeError)'],
  ]);
  assert.deepEqual(run.problems.filter((p) => p.file.startsWith(`${j}/cfgdir__1/config.json`)), []);
  assert.deepEqual(a.st__1.evidence.filter((e) => e.kind === 'step').map((s) => [s.label, (s.children ?? []).map((c) => c.label)]), [['steps/one/', ['verifier/', 'reward.txt']]]);
});
