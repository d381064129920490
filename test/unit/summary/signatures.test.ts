// Rule 10's output signatures piece by piece: the head hash (the first 64 KiB, whatever the chunks), a file's
// signature, equality, "grew by appending", the sidecar's parsing and its `resumed` flag. Real files in a temp
// folder; expected hashes computed here from the bytes with node:crypto, never with the code under test.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { FsPort } from '../../../src/core/fs/port';
import type { Problem } from '../../../src/core/model';
import { appendedSince, fileSignature, headHash, HEAD_BYTES, parseSignatures, readSignaturesSidecar, sameSignature,
  type FileSignature, type OutputSignatures } from '../../../src/core/summary/signatures';
import { nodeFs, posix, tmpDir } from './helpers';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

/** nodeFs reading in small chunks, counting the chunks handed out. */
function smallChunks(size: number) {
  const counter = { chunks: 0 };
  const port = Object.assign(Object.create(nodeFs) as FsPort, {
    async *readChunks(p: string) {
      const all = fs.readFileSync(p);
      for (let at = 0; at < all.length; at += size) { counter.chunks++; yield all.subarray(at, at + size); }
    },
  });
  return { port, counter };
}

test('headHash: SHA-256 of the first min(size, 64 KiB) bytes, reading no further than that, in any chunk size', async () => {
  const d = posix(tmpDir('head'));
  const big = bytes(200 * 1024);
  fs.writeFileSync(`${d}/big`, big);
  fs.writeFileSync(`${d}/small`, big.subarray(0, 1000));
  fs.writeFileSync(`${d}/empty`, '');
  assert.equal(await headHash(nodeFs, `${d}/big`, big.length), sha(big.subarray(0, HEAD_BYTES)));
  assert.equal(await headHash(nodeFs, `${d}/small`, 1000), sha(big.subarray(0, 1000)));
  assert.equal(await headHash(nodeFs, `${d}/empty`, 0), sha(new Uint8Array(0)));
  // `size` bounds the head (the size a signature recorded), not the file's size now.
  assert.equal(await headHash(nodeFs, `${d}/big`, 10), sha(big.subarray(0, 10)));
  for (const chunk of [1000, 4096, 65536, 100000]) {
    const { port, counter } = smallChunks(chunk);
    assert.equal(await headHash(port, `${d}/big`, big.length), sha(big.subarray(0, HEAD_BYTES)), `chunks of ${chunk}`);
    assert.equal(counter.chunks, Math.ceil(HEAD_BYTES / chunk), `chunks of ${chunk} read`);
    counter.chunks = 0;
    assert.equal(await headHash(port, `${d}/big`, 2500), sha(big.subarray(0, 2500)));
    assert.equal(counter.chunks, Math.ceil(2500 / chunk));
  }
});

test('fileSignature: size, mtime and head hash; null for nothing or a folder; an unreadable head is an empty hash', async () => {
  const d = posix(tmpDir('sig'));
  const b = bytes(5000);
  fs.writeFileSync(`${d}/f`, b);
  fs.utimesSync(`${d}/f`, 1_700_000_000, 1_700_000_000);
  fs.mkdirSync(`${d}/dir`);
  assert.deepEqual(await fileSignature(nodeFs, `${d}/f`), { size: 5000, mtime_ms: 1_700_000_000_000, head_sha256: sha(b) });
  assert.equal(await fileSignature(nodeFs, `${d}/dir`), null);
  assert.equal(await fileSignature(nodeFs, `${d}/gone`), null);
  const failing = Object.assign(Object.create(nodeFs) as FsPort, {
    // eslint-disable-next-line require-yield
    async *readChunks(): AsyncGenerator<Uint8Array> { throw new Error('EIO'); },
  });
  assert.deepEqual(await fileSignature(failing, `${d}/f`), { size: 5000, mtime_ms: 1_700_000_000_000, head_sha256: '' });
});

test('sameSignature: all three equal; nothing is never the same as anything', () => {
  const s: FileSignature = { size: 3, mtime_ms: 7, head_sha256: 'ab' };
  assert.equal(sameSignature(s, { ...s }), true);
  assert.equal(sameSignature({ ...s, size: 4 }, s), false);
  assert.equal(sameSignature({ ...s, mtime_ms: 8 }, s), false);
  assert.equal(sameSignature({ ...s, head_sha256: 'cd' }, s), false);
  assert.equal(sameSignature(null, s), false);
  assert.equal(sameSignature(undefined, s), false);
  assert.equal(sameSignature(s, null), false);
  assert.equal(sameSignature(null, null), false);
});

test('appendedSince: rollouts or failures larger now with their recorded head unchanged; not when empty before, same size, rewritten or gone', async () => {
  const d = posix(tmpDir('appended'));
  const r = `${d}/run.jsonl`;
  const f = `${d}/run_failures.jsonl`;
  const before = bytes(3000, 1);
  const sigOf = (b: Uint8Array): FileSignature => ({ size: b.length, mtime_ms: 1, head_sha256: sha(b.subarray(0, HEAD_BYTES)) });
  const sigs = (rollouts: FileSignature | null, failures: FileSignature | null): OutputSignatures => ({ rollouts, failures, materialized_inputs: null });
  const write = (p: string, b: Uint8Array | null) => { if (b) fs.writeFileSync(p, b); else fs.rmSync(p, { force: true, recursive: true }); };
  const grown = new Uint8Array([...before, ...bytes(500, 9)]);
  const rewritten = new Uint8Array([...bytes(3000, 2), ...bytes(500, 9)]);

  write(r, grown); write(f, null);
  assert.equal(await appendedSince(nodeFs, r, sigs(sigOf(before), null)), true);
  write(r, rewritten);
  assert.equal(await appendedSince(nodeFs, r, sigs(sigOf(before), null)), false);
  write(r, before);
  assert.equal(await appendedSince(nodeFs, r, sigs(sigOf(before), null)), false);
  write(r, null);
  assert.equal(await appendedSince(nodeFs, r, sigs(sigOf(before), null)), false);
  fs.mkdirSync(r);
  assert.equal(await appendedSince(nodeFs, r, sigs(sigOf(before), null)), false);
  write(r, null);
  // Empty before: a fresh start writing into a new file grows it too, so it is not told apart.
  write(r, grown);
  assert.equal(await appendedSince(nodeFs, r, sigs(sigOf(new Uint8Array(0)), null)), false);
  assert.equal(await appendedSince(nodeFs, r, sigs(null, null)), false);
  // The failures file counts as much as the rollouts.
  write(r, before); write(f, grown);
  assert.equal(await appendedSince(nodeFs, r, sigs(sigOf(before), sigOf(before))), true);
  // A head that cannot be read is not told apart.
  const failing = Object.assign(Object.create(nodeFs) as FsPort, {
    // eslint-disable-next-line require-yield
    async *readChunks(): AsyncGenerator<Uint8Array> { throw new Error('EIO'); },
  });
  assert.equal(await appendedSince(failing, r, sigs(sigOf(before), sigOf(before))), false);
});

test('parseSignatures: a sidecar or a bare object; a missing key is no file; anything else is one error Problem', () => {
  const sig = { size: 1, mtime_ms: 2, head_sha256: 'x' };
  const ok = (text: string) => {
    const problems: Problem[] = [];
    const got = parseSignatures(text, 'f.json', problems);
    assert.deepEqual(problems, [], text);
    return got;
  };
  assert.deepEqual(ok(JSON.stringify({ schema_version: 1, signatures: { rollouts: sig, failures: null, materialized_inputs: sig } })),
    { rollouts: sig, failures: null, materialized_inputs: sig });
  assert.deepEqual(ok(JSON.stringify({ rollouts: { ...sig, extra: 1 } })), { rollouts: sig, failures: null, materialized_inputs: null });
  const bad = (text: string) => {
    const problems: Problem[] = [];
    assert.equal(parseSignatures(text, 'f.json', problems), undefined, text);
    assert.equal(problems.length, 1, text);
    return problems[0];
  };
  const p = bad('{"rollouts": ');
  assert.deepEqual({ ...p, message: '' }, { file: 'f.json', line: 1, column: 14, severity: 'error', code: 'signatures-unreadable', message: '' });
  assert.match(p.message, /^f\.json is not valid JSON at line 1, column 14: ./);
  // A sidecar edited by hand: the line and column of the fault, in the Problem and its message.
  const edited = bad('{\n  "signatures": {\n    "rollouts": null,,\n    "failures": null\n  }\n}\n');
  assert.deepEqual([edited.line, edited.column], [3, 22]);
  assert.match(edited.message, /^f\.json is not valid JSON at line 3, column 22: ./);
  const deep = bad(`${'\n'.repeat(4)}${'['.repeat(1100)}`);
  assert.deepEqual([deep.line, deep.column], [5, 1001]);
  assert.match(deep.message, /nested more than 1000 levels deep/);
  for (const text of ['null', '5', '"text"', '{"signatures": null}', '{"signatures": 5}']) {
    assert.deepEqual(bad(text), { file: 'f.json', severity: 'error', code: 'signatures-unreadable', message: 'f.json holds no output signatures' });
  }
  for (const [key, value] of [['rollouts', 5], ['failures', 'x'], ['materialized_inputs', { ...sig, size: '1' }],
    ['rollouts', { ...sig, mtime_ms: null }], ['failures', { ...sig, head_sha256: 3 }], ['rollouts', { size: 1, mtime_ms: 2 }], ['rollouts', []]] as const) {
    assert.deepEqual(bad(JSON.stringify({ signatures: { [key]: value } })), { file: 'f.json', severity: 'error', code: 'signatures-unreadable',
      jsonPath: ['signatures', key], message: `f.json: the signature of '${key}' is not {size, mtime_ms, head_sha256} or null` }, `${key}: ${JSON.stringify(value)}`);
  }
});

test('readSignaturesSidecar: absent or a folder is undefined; "resumed": true (at the top) is null; otherwise its signatures', async () => {
  const d = posix(tmpDir('sidecar'));
  const r = `${d}/run.jsonl`;
  const side = `${d}/run_signatures.json`;
  const sig = { size: 1, mtime_ms: 2, head_sha256: 'x' };
  const sigs = { rollouts: sig, failures: null, materialized_inputs: null };
  const problems: Problem[] = [];
  assert.equal(await readSignaturesSidecar(nodeFs, r, problems), undefined);
  fs.mkdirSync(side);
  assert.equal(await readSignaturesSidecar(nodeFs, r, problems), undefined);
  fs.rmdirSync(side);
  for (const text of ['{"resumed":true, "signatures": {}}', '{"resumed" :  true}', `{"schema_version": 1, "resumed": true, "signatures": ${JSON.stringify(sigs)}}`]) {
    fs.writeFileSync(side, text);
    assert.equal(await readSignaturesSidecar(nodeFs, r, problems), null, text);
  }
  for (const text of [`{"resumed": false, "signatures": ${JSON.stringify(sigs)}}`, `{"note": {"resumed": true}, "signatures": ${JSON.stringify(sigs)}}`,
    `{"resumed": false, "note": {"resumed": true}, "signatures": ${JSON.stringify(sigs)}}`]) {
    fs.writeFileSync(side, text);
    assert.deepEqual(await readSignaturesSidecar(nodeFs, r, problems), sigs, text);
  }
  assert.equal(problems.length, 0);
  // "resumed": true in text that does not parse: the parse error is the Problem.
  fs.writeFileSync(side, '{"resumed": true, ');
  assert.equal(await readSignaturesSidecar(nodeFs, r, problems), undefined);
  assert.deepEqual(problems.map((p) => [p.file, p.code]), [[side, 'signatures-unreadable']]);
  problems.length = 0;
  const failing = Object.assign(Object.create(nodeFs) as FsPort, { readFile: async () => { throw new Error('EACCES here'); } });
  assert.equal(await readSignaturesSidecar(failing, r, problems), undefined);
  assert.deepEqual(problems, [{ file: side, severity: 'error', code: 'signatures-unreadable', message: `cannot read ${side}: EACCES here` }]);
});
