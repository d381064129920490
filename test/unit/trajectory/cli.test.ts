// `harbor-runs trajectory <file> [--json]`: the documented JSON fields, exit codes 0 / 1 / 2, no stack trace.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { continuedTrajectory, subagentTrajectory, type FolderFiles } from '../../../scripts/sample-runs/atifFeatures';

const cli = path.resolve(__dirname, '../../../cli.js');

function folder(files: FolderFiles): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'traj-cli-'));
  for (const [rel, v] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), v instanceof Uint8Array ? v : typeof v === 'string' ? v : JSON.stringify(v));
  }
  return d;
}

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'trajectory', ...args], { encoding: 'utf8' });
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  return r;
}

test('--json has the documented top-level fields, continuations joined and subagents resolved', () => {
  const d = folder(continuedTrajectory().files);
  const subs = folder(subagentTrajectory().files);
  try {
    const r = run(path.join(d, 'trajectory.json'), '--json');
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    for (const k of ['schema_version', 'steps', 'tool_calls', 'paired', 'totals', 'totals_with_subagents', 'final_metrics', 'continuations', 'subagents', 'problems']) assert.ok(k in doc, k);
    assert.equal(doc.schema_version, 'ATIF-v1.7');
    assert.equal(doc.steps, 6);
    assert.equal(doc.tool_calls, 3);
    assert.equal(doc.paired, 3);
    assert.deepEqual(Object.keys(doc.totals), ['prompt_tokens', 'completion_tokens', 'cached_tokens', 'cost_usd']);
    assert.equal(doc.totals.prompt_tokens, 1000);
    assert.equal(doc.continuations[0].path, path.join(d, 'trajectory.cont-1.json').split(path.sep).join('/'));
    const s = JSON.parse(run(path.join(subs, 'trajectory.json'), '--json').stdout);
    assert.deepEqual(s.subagents.map((x: { kind: string; path: string | null }) => [x.kind, x.path === null]), [['path', false], ['id', false], ['session', true], ['embedded', false]]);
    assert.equal(s.totals_with_subagents.prompt_tokens, 1210);
    assert.ok(s.problems.every((p: Record<string, unknown>) => typeof p.file === 'string' && typeof p.pointer === 'string' && typeof p.message === 'string'));
    const text = run(path.join(d, 'trajectory.json'));
    assert.equal(text.status, 0);
    assert.match(text.stdout, /continuation .*trajectory\.cont-1\.json from step #4 \(3 steps, 2 copied steps folded\)/);
  } finally {
    fs.rmSync(d, { recursive: true, force: true });
    fs.rmSync(subs, { recursive: true, force: true });
  }
});

test('exit 1 when unreadable or not ATIF (saying what it looks like), 2 on usage errors', () => {
  const d = folder({ 'mini.json': { trajectory_format: 'mini-swe-agent-1', info: {}, messages: [{ role: 'user', content: 'x' }] }, 'bad.json': '{nope' });
  try {
    const mini = run(path.join(d, 'mini.json'), '--json');
    assert.equal(mini.status, 1);
    assert.equal(JSON.parse(mini.stdout).schema_version, null);
    assert.match(mini.stderr, /not ATIF \(a mini-swe-agent trajectory\)/);
    const bad = run(path.join(d, 'bad.json'));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /not valid JSON/);
    assert.equal(run(path.join(d, 'missing.json')).status, 1);
    assert.equal(run().status, 2);
    assert.equal(run('a', 'b').status, 2);
    assert.equal(run('--frobnicate').status, 2);
  } finally {
    fs.rmSync(d, { recursive: true, force: true });
  }
});

test('control and bidi characters of a trajectory reach the terminal escaped: --json, the text and stderr', () => {
  const evil = '\u001b]0;pwn\u0007\u202e\u0085';
  const d = folder({
    [`t${'\u001b[2J'}.json`]: '{nope',
    'trajectory.json': { schema_version: 'ATIF-v1.7', agent: { name: evil, version: '1' }, steps: [{ step_id: 1, source: 'agent', message: evil }] },
  });
  const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;
  try {
    const json = run(path.join(d, 'trajectory.json'), '--json');
    assert.equal(json.status, 0, json.stderr);
    assert.doesNotMatch(json.stdout, unsafe);
    assert.equal(JSON.parse(json.stdout).agent.name, evil, 'the JSON means the same');
    const text = run(path.join(d, 'trajectory.json'));
    assert.doesNotMatch(text.stdout, unsafe);
    assert.match(text.stdout, /agent \\x1b\]0;pwn\\x07\\u202e\\x85 1/);
    const bad = run(path.join(d, 't\u001b[2J.json'));
    assert.equal(bad.status, 1);
    assert.doesNotMatch(bad.stderr, unsafe);
    assert.match(bad.stderr, /t\\x1b\[2J\.json/);
  } finally {
    fs.rmSync(d, { recursive: true, force: true });
  }
});
