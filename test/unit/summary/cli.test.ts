// `harbor-runs summary` and `harbor-runs signatures` through the CLI's dispatcher and the built out/cli.js: the same bytes as writeRunSummary,
// clear messages, exit 0 written / 1 could not write / 2 usage.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
// Not main() itself: bundled into a test, main.ts's `require.main === module` guard runs the CLI with the test's argv
// and sets exit code 2; the dispatcher it calls is used instead (and out/cli.js is spawned below).
import { commands } from '../../../src/cli/commands';
import { buildRunSummary, outputSignatures, serializeSummary } from '../../../src/core/summary';
import { buildRun } from './builders';
import { nodeFs, posix, readJson, repoRoot, tmpDir } from './helpers';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = process.stdout.write;
  const e = process.stderr.write;
  // stdout is also the test runner's channel: record what passes through, but let it all through.
  process.stdout.write = ((s: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof s === 'string') out += s;
    return (o as (...a: unknown[]) => boolean).call(process.stdout, s, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => { err += String(s); return true; }) as typeof process.stderr.write;
  try {
    const [name, ...rest] = argv;
    return { code: await commands[name](rest), out, err };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}

test('summary: writes exactly serializeSummary(buildRunSummary(...)), flags applied, exit 0', async () => {
  const dir = tmpDir('cli');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored', folder: 'absent' }] }] }));
  const r = await cli(['summary', rollouts, '--target', 'harbor:mini@1', '--agent', 'oracle_agent', '--unvalidated', 'zz', '--skipped', 'b=b: broken']);
  assert.equal(r.code, 0, r.err);
  const summary = path.join(dir, 'rollouts_run_summary.json');
  // (the test runner reports through stdout too: only the end is ours)
  assert.ok(r.out.endsWith(`${posix(summary)}\n`));
  assert.match(r.err, /1 task, 2 attempts, 1 missing path\b/);
  assert.match(r.err, /warning: .*resources|warning: .*verifier\/s-0-1/);
  const expected = await buildRunSummary(nodeFs, rollouts, {
    identity: { target: 'harbor:mini@1', agent: 'oracle_agent' }, unvalidated: { zz: 'NO_REFERENCE_SOLUTION' }, skipped: { b: 'b: broken' },
  });
  assert.equal(fs.readFileSync(summary, 'utf8'), serializeSummary(expected.document));
});

test('summary --before-dispatch FILE: the signatures file marks unchanged outputs stale', async () => {
  const dir = tmpDir('cli-bd');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }] }] }));
  const sigs = path.join(dir, 'before.json');
  fs.writeFileSync(sigs, JSON.stringify(await outputSignatures(nodeFs, rollouts)));
  const r = await cli(['summary', rollouts, '--before-dispatch', sigs]);
  assert.equal(r.code, 0, r.err);
  const doc = readJson(path.join(dir, 'rollouts_run_summary.json')) as { stale_files: Record<string, string> };
  assert.deepEqual(doc.stale_files, { rollouts: 'rollouts.jsonl', materialized_inputs: 'rollouts_materialized_inputs.jsonl' });
  assert.match(r.err, /stale: rollouts, materialized_inputs/);
});

test('summary and signatures: usage errors exit 2, an unwritable place exits 1, with a message', async () => {
  const dir = tmpDir('cli-err');
  for (const argv of [['summary'], ['summary', 'a.jsonl', 'b.jsonl'], ['summary', 'a.jsonl', '--bogus'], ['summary', 'a.jsonl', '--split'],
    ['summary', 'a.jsonl', '--skipped', 'x'], ['summary', 'a.jsonl', '--before-dispatch', path.join(dir, 'nope.json')],
    ['summary', 'a.jsonl', '--num-repeats', '0'], ['summary', 'a.jsonl', '--num-repeats', 'two'],
    ['summary', 'a.jsonl', '--resumed', '--before-dispatch', path.join(dir, 'x.json')],
    ['signatures'], ['signatures', 'a.jsonl', '--out']]) {
    const r = await cli(argv);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err}`);
    assert.match(r.err, /^harbor-runs (summary|signatures): .+\n(usage: .+\n)?/);
  }
  fs.writeFileSync(path.join(dir, 'bad.json'), '{"signatures": {"rollouts": 3}}');
  const bad = await cli(['summary', path.join(dir, 'r.jsonl'), '--before-dispatch', path.join(dir, 'bad.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /signature of 'rollouts'/);
  fs.writeFileSync(path.join(dir, 'file'), '');
  const r = await cli(['summary', path.join(dir, 'file', 'rollouts.jsonl')]);
  assert.equal(r.code, 1);
  assert.match(r.err, /harbor-runs summary: not written: no run at .*rollouts\.jsonl/);
  const s = await cli(['signatures', path.join(dir, 'r.jsonl'), '--out', path.join(dir, 'file', 'x.json')]);
  assert.equal(s.code, 1);
  assert.match(s.err, /harbor-runs signatures: cannot write/);
});

test('summary --num-repeats, --run-config and --resumed reach the writer; how the run was read is printed', async () => {
  const dir = tmpDir('cli-r2');
  const results = path.join(dir, 'results');
  buildRun(results, { runConfig: true, materialized: false, tasks: [{ id: 'a', repeats: [{ outcome: 'missing' }] }] });
  const rollouts = posix(path.join(results, 'rollouts.jsonl'));
  let r = await cli(['summary', rollouts]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /warning: .*the schedule is unknown.*--num-repeats/);
  r = await cli(['summary', rollouts, '--num-repeats', '3']);
  assert.equal(r.code, 0, r.err);
  const doc = readJson(path.join(results, 'rollouts_run_summary.json')) as { tasks: { repeats: unknown[] }[]; schedule_unknown?: string };
  assert.equal(doc.tasks[0].repeats.length, 3);
  assert.equal(doc.schedule_unknown, undefined);
  const elsewhere = posix(path.join(dir, 'out.jsonl'));
  fs.writeFileSync(elsewhere, '');
  r = await cli(['summary', elsewhere, '--run-config', path.join(results, 'run_config.yaml'), '--num-repeats', '1']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /info: .*run_config\.yaml: run config used: .*as given/);
  assert.equal((readJson(path.join(dir, 'out_run_summary.json')) as { agent: string }).agent, 'terminus_2_sandboxed_agent');
  // --resumed: a sidecar's signatures do not apply.
  assert.equal((await cli(['signatures', rollouts])).code, 0);
  r = await cli(['summary', rollouts, '--resumed', '--num-repeats', '1']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual((readJson(path.join(results, 'rollouts_run_summary.json')) as { stale_files: object }).stale_files, {});
});

test('signatures: records the sidecar (default <stem>_signatures.json, or --out)', async () => {
  const dir = tmpDir('cli-sig');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'failed' }] }] }));
  const r = await cli(['signatures', rollouts]);
  assert.equal(r.code, 0, r.err);
  const side = readJson(path.join(dir, 'rollouts_signatures.json')) as Record<string, unknown>;
  assert.equal(side.schema_version, 1);
  assert.equal(side.rollouts, 'rollouts.jsonl');
  assert.deepEqual(side.signatures, await outputSignatures(nodeFs, rollouts));
  const other = path.join(dir, 'elsewhere', 'sigs.json');
  assert.equal((await cli(['signatures', rollouts, '--out', other])).code, 0);
  assert.ok(fs.existsSync(other));
});

test('signatures: a FIFO (or a folder) under an output name is said, naming it, and recorded as no file', { skip: process.platform === 'win32' && 'no FIFOs' }, async () => {
  const dir = posix(tmpDir('cli-sig-fifo'));
  const rollouts = `${dir}/rollouts.jsonl`;
  spawnSync('mkfifo', [rollouts]);
  fs.mkdirSync(`${dir}/rollouts_failures.jsonl`);
  const r = await cli(['signatures', rollouts]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /^harbor-runs signatures: warning: .*\/rollouts\.jsonl \(rollouts\) is there but is not a regular file \(a FIFO, a device or a socket\): not read, recorded as no file$/m);
  assert.match(r.err, /^harbor-runs signatures: warning: .*\/rollouts_failures\.jsonl \(failures\) is there but is a folder: not read, recorded as no file$/m);
  assert.doesNotMatch(r.err, /materialized/);
  const side = readJson(path.join(dir, 'rollouts_signatures.json')) as { signatures: Record<string, unknown> };
  assert.deepEqual(side.signatures, { rollouts: null, failures: null, materialized_inputs: null });
});

test('the built CLI (out/cli.js) writes the same bytes', { skip: !fs.existsSync(path.join(repoRoot(), 'out', 'cli.js')) && 'out/cli.js not built' }, async () => {
  const dir = tmpDir('cli-bin');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'failed' }] }] }));
  const r = spawnSync(process.execPath, [path.join(repoRoot(), 'out', 'cli.js'), 'summary', rollouts, '--split', 'validation'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const expected = await buildRunSummary(nodeFs, rollouts);
  assert.equal(fs.readFileSync(path.join(dir, 'rollouts_run_summary.json'), 'utf8'), serializeSummary(expected.document));
});
