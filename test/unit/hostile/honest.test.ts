// Item 7 of docs/untrusted-runs.md, honest inputs: what JSON.parse and a lenient UTF-8 decoder would do silently to a
// run's bytes is said. Hostile files are made here from generated runs: a byte order mark on the rollouts file and on
// a trial's result.json, bytes that are not UTF-8 in a task id, a reward of 1e400 and of -0, a key given twice.
// Nothing crashes, no row is lost, and each is a warning naming its file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { duplicateKey, duplicateKeyOf, invalidUtf8At, sanitizeNumbers, scanJsonText, walkParsed } from '../../../src/core/honestInput';
import { depthExceededAt } from '../../../src/core/jsonDepth';
import fc from 'fast-check';
import { readNemoRollouts } from '../../../src/core/readers/runSummary';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { readJsonl } from '../../../src/core/jsonl';
import { writeRunSummary } from '../../../src/core/summary';
import type { Run } from '../../../src/core/model';
import { formatReward } from '../../../src/core/format';
import { generateNemoRun, nemoEveryCase } from '../../../scripts/sample-runs/nemoGym';
import { generateHarborJob, harborEveryCase } from '../../../scripts/sample-runs/harborJob';
import { tempDir } from './helpers';

const nfs = new NodeFs();
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Rewrites line `n` (1-based) of a JSONL file as bytes. */
function editLine(file: string, n: number, edit: (line: Buffer) => Buffer): void {
  const lines: Buffer[] = fs.readFileSync(file).toString('latin1').split('\n').map((l) => Buffer.from(l, 'latin1'));
  lines[n - 1] = edit(lines[n - 1]);
  fs.writeFileSync(file, Buffer.concat(lines.flatMap((l, i) => (i ? [Buffer.from('\n'), l] : [l]))));
}

const replace = (from: string, to: Buffer | string) => (line: Buffer): Buffer => {
  const at = line.indexOf(from);
  assert.ok(at >= 0, `${from} is on the line`);
  return Buffer.concat([line.subarray(0, at), Buffer.isBuffer(to) ? to : Buffer.from(to), line.subarray(at + from.length)]);
};

function attempts(run: Run) {
  return run.tasks.flatMap((t) => t.attempts.map((a) => ({ task: t.id, ...a })));
}

test('the helpers: UTF-8 validation agrees with a fatal decoder; duplicate keys by object; 1e400 → null, -0 → 0', () => {
  const cases = [[0x61], [0xc3, 0xa9], [0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x61, 0x80]];
  for (const c of cases) {
    const b = Uint8Array.from(c);
    let valid = true;
    try { new TextDecoder('utf-8', { fatal: true }).decode(b); } catch { valid = false; }
    assert.equal(invalidUtf8At(b) < 0, valid, c.map((x) => x.toString(16)).join(' '));
  }
  assert.deepEqual(duplicateKey('{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}'), undefined);
  assert.deepEqual(duplicateKey('{"a":1,"b":"x\\"a","a":2}'), { key: 'a', offset: 18 });
  assert.deepEqual(duplicateKey('[{"k":1},{"k":2,"k":3}]'), { key: 'k', offset: 16 });
  const v = JSON.parse('{"r":1e400,"s":[-1e400,-0],"t":{"u":-0}}') as { r: unknown; s: unknown[]; t: { u: number } };
  assert.deepEqual(sanitizeNumbers(v), [['r'], ['s', 0]]);
  assert.equal(v.r, null);
  assert.ok(Object.is(v.s[1], 0) && Object.is(v.t.u, 0));
});

test('duplicateKeyOf (keys written against keys kept, then the search) answers as duplicateKey, keys repeated or not', () => {
  const key = fc.constantFrom('a', 'b', 'k', '\\u0061', 'x\\"y', '__proto__', '0', '');
  const doc: fc.Arbitrary<string> = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, fc.constantFrom('1', 'null', '"a"', '"{\\"a\\":1}"', '[]', '{}'),
      fc.array(tie('v'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
      fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }).map((ps) => `{${ps.map(([k, x]) => `"${k}": ${x}`).join(', ')}}`)),
  })).v as fc.Arbitrary<string>;
  fc.assert(fc.property(doc, (text) => {
    assert.deepEqual(duplicateKeyOf(text, JSON.parse(text)), duplicateKey(text), text);
  }), { numRuns: 2000, seed: 20261130 });
});

test('the one-pass checks the readers use (scanJsonText, walkParsed) answer as depthExceededAt, duplicateKeyOf and sanitizeNumbers', () => {
  const key = fc.constantFrom('a', 'b', 'k', '\\u0061', 'x\\"y', '__proto__', '0', '');
  const doc: fc.Arbitrary<string> = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, fc.constantFrom('1', 'null', '1e400', '-1e400', '-0', '"a"', '"[{\\"a\\":1}"', '[]', '{}'),
      fc.array(tie('v'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
      fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }).map((ps) => `{${ps.map(([k, x]) => `"${k}": ${x}`).join(', ')}}`)),
  })).v as fc.Arbitrary<string>;
  fc.assert(fc.property(doc, fc.integer({ min: 0, max: 4 }), (text, max) => {
    const scan = scanJsonText(text, max);
    assert.equal(scan.deepAt, depthExceededAt(text, max), text);
    const once = JSON.parse(text) as unknown;
    const walked = walkParsed(once);
    assert.deepEqual(duplicateKeyOf(text, once, { written: scanJsonText(text, 1000).writtenKeys, kept: walked.keptKeys }), duplicateKey(text), text);
    assert.deepEqual(walked.outOfRange, sanitizeNumbers(JSON.parse(text)), text);
    // Inside a container every 1e400 is replaced (null) and -0 reads 0 (a value at the top is the caller's).
    if (once && typeof once === 'object') assert.deepEqual(once, JSON.parse(JSON.stringify(once)), text);
  }), { numRuns: 2000, seed: 20261201 });
  // Unbalanced closers before the openers: the depth as depthExceededAt counts it.
  assert.equal(scanJsonText(']]{{{', 2).deepAt, depthExceededAt(']]{{{', 2));
});

test('NeMo Gym rollouts: a BOM, a task id that is not UTF-8, rewards 1e400 and -0: every row read, each said with its line', { timeout: 60_000 }, async () => {
  const dir = tempDir('nemo-honest-');
  const { rolloutsPath } = await generateNemoRun(dir, nemoEveryCase());
  const clean = await readNemoRollouts(nfs, rolloutsPath);
  const lines = fs.readFileSync(rolloutsPath, 'utf8').split('\n').filter(Boolean);
  const rewardLine = (r: string) => lines.findIndex((l, i) => i > 0 && l.includes(`"reward":${r},`)) + 1;
  const one = rewardLine('1');
  const zero = rewardLine('0');
  assert.ok(one > 1 && zero > 1 && one !== zero);
  fs.writeFileSync(rolloutsPath, Buffer.concat([BOM, fs.readFileSync(rolloutsPath)]));
  editLine(rolloutsPath, one, replace('"reward":1,', '"reward":1e400,'));
  editLine(rolloutsPath, zero, replace('"reward":0,', '"reward":-0,'));
  const idLine = lines.length; // the last row: its task id gets a byte that is not UTF-8
  const id = /"_ng_task_id":\{"taskset":"[^"]*","task_id":"([^"]*)"/.exec(lines[idLine - 1])![1];
  editLine(rolloutsPath, idLine, replace(`"task_id":"${id}"}`, Buffer.concat([Buffer.from(`"task_id":"${id}`), Buffer.from([0xff]), Buffer.from('"}')])));

  const run = await readNemoRollouts(nfs, rolloutsPath);
  const codes = run.problems.map((p) => `${p.code}:${p.line ?? ''}`);
  assert.ok(codes.includes('bom:1'), codes.join(' '));
  assert.ok(codes.includes(`number-out-of-range:${one}`), codes.join(' '));
  assert.ok(codes.includes(`invalid-utf8:${idLine}`), codes.join(' '));
  assert.match(run.problems.find((p) => p.code === 'invalid-utf8')!.message, /not UTF-8.*U\+FFFD/);
  // Row 1 (after the BOM) is read: no attempt went missing that was there before, besides the one whose id changed.
  const before = attempts(clean).filter((a) => a.outcome === 'missing').length;
  const after = attempts(run).filter((a) => a.outcome === 'missing' && !a.task.includes('\ufffd')).length;
  assert.ok(after <= before + 1, `${before} missing before, ${after} after`);
  // -0 is 0 everywhere, written as 0.
  assert.ok(!attempts(run).some((a) => Object.is(a.reward, -0)));
  const w = await writeRunSummary(nfs, rolloutsPath);
  assert.ok(!w.error, w.error);
  const text = fs.readFileSync(w.path, 'utf8');
  assert.ok(!text.includes('-0,') && !/Infinity|1e400/.test(text));
  assert.equal(formatReward(0), formatReward(-0));
});

test('Harbor trial result.json: a BOM, a key given twice, a task name that is not UTF-8, a reward of 1e400: said, the trial still read', { timeout: 60_000 }, async () => {
  const jobs = tempDir('jobs-honest-');
  const job = await generateHarborJob(jobs, harborEveryCase());
  const results = job.trials.map((t) => path.join(job.jobDir, t.name, 'result.json')).filter((f) => fs.existsSync(f));
  assert.ok(results.length >= 4);
  const [bomFile, dupFile, utfFile, infFile] = results;
  fs.writeFileSync(bomFile, Buffer.concat([BOM, fs.readFileSync(bomFile)]));
  const dup = fs.readFileSync(dupFile, 'utf8');
  fs.writeFileSync(dupFile, dup.replace('{', '{\n  "task_name": "decoy",'));
  const utf = JSON.parse(fs.readFileSync(utfFile, 'utf8')) as { task_name: string };
  fs.writeFileSync(utfFile, Buffer.concat([Buffer.from(fs.readFileSync(utfFile, 'utf8').replace(`"task_name": "${utf.task_name}"`, `"task_name": "${utf.task_name}\u0001"`))]).toString('latin1').replace('\u0001', '\u00ff'), 'latin1');
  const inf = JSON.parse(fs.readFileSync(infFile, 'utf8')) as { verifier_result?: { rewards?: Record<string, number> | null } | null };
  inf.verifier_result = { rewards: { reward: 12345 } };
  fs.writeFileSync(infFile, JSON.stringify(inf, null, 2).replace('12345', '1e400'));

  const run = await readHarborJob(nfs, job.jobDir);
  const at = (file: string, code: string) => run.problems.find((p) => p.file === file && p.code === code);
  assert.ok(at(bomFile, 'bom'), JSON.stringify(run.problems.map((p) => [p.code, path.basename(path.dirname(p.file))])));
  const d = at(dupFile, 'duplicate-key');
  assert.ok(d && d.line !== undefined && /"task_name" twice/.test(d.message), JSON.stringify(d));
  assert.ok(at(utfFile, 'invalid-utf8'));
  const n = at(infFile, 'number-out-of-range');
  assert.ok(n && /\.verifier_result\.rewards\.reward/.test(n.message) && n.line !== undefined, JSON.stringify(n));
  const infAttempt = attempts(run).find((a) => a.dir === path.dirname(infFile));
  assert.equal(infAttempt?.reward, null, 'not a number: not measured, and said so');
  // Every trial is still an attempt.
  assert.equal(attempts(run).length, job.trials.length);
});

test('JSONL read by readJsonl (verdicts, training metrics): BOM, duplicate key, 1e400 said per line', async () => {
  const file = path.join(tempDir('jsonl-'), 'metrics.jsonl');
  fs.writeFileSync(file, Buffer.concat([BOM, Buffer.from('{"step":1,"loss":0.5}\n{"step":2,"step":3}\n{"step":4,"loss":1e400}\n')]));
  const rows: unknown[] = [];
  const r = await readJsonl(nfs, file, (v) => { rows.push(v); });
  assert.equal(r.rows, 3);
  assert.deepEqual(r.problems.map((p) => [p.code, p.line]), [['bom', 1], ['duplicate-key', 2], ['number-out-of-range', 3]]);
  assert.deepEqual(rows[2], { step: 4, loss: null });
});
