// The fast file paths (FsPort.openSequential, FsPort.listDirs and FsPort.gather on Node) give exactly what the plain
// FsPort methods give: the same lines at any chunk size, the same folder listings, the same summary bytes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FsPort } from '../../../src/core/fs/port';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { forEachLine } from '../../../src/core/summary/lines';
import { buildRunSummary, serializeSummary } from '../../../src/core/summary';
import { generateNemoRun, nemoEveryCase, nemoLarge } from '../../../scripts/sample-runs/nemoGym';
import { posix, tmpDir } from './helpers';

/** The same Node file access with only FsPort's required methods (what a backend without the fast paths offers). */
function plain(node: NodeFs): FsPort {
  return {
    stat: (p) => node.stat(p), readFile: (p) => node.readFile(p), readDir: (p) => node.readDir(p),
    readChunks: (p, n) => node.readChunks(p, n), mkdirp: (p) => node.mkdirp(p),
    writeFileAtomic: (p, d) => node.writeFileAtomic(p, d), realpathDirs: (p) => node.realpathDirs(p),
  };
}

async function lines(port: FsPort, file: string, chunk: number): Promise<[string, number, boolean][]> {
  const out: [string, number, boolean][] = [];
  await forEachLine(port, file, (buf, start, end, line, terminated) => {
    out.push([Buffer.from(buf.subarray(start, end)).toString('utf8'), line, terminated]);
  }, chunk);
  return out;
}

test('forEachLine: reused buffers give the lines a fresh buffer per chunk gives, at any chunk size', async () => {
  const dir = tmpDir('lines');
  const long = 'x'.repeat(5000);
  const cases = {
    'plain.jsonl': 'a\nbb\n\nccc\n',
    'crlf.jsonl': '{"k": 1}\r\n{"k": "é→"}\r\n',
    'no-newline.jsonl': 'first\nlast line without newline',
    'long.jsonl': `${long}\nshort\n${long}é${long}\n`,
    'empty.jsonl': '',
  };
  const node = new NodeFs();
  assert.ok(node.openSequential, 'NodeFs reads into reused buffers');
  for (const [name, text] of Object.entries(cases)) {
    const file = posix(path.join(dir, name));
    fs.writeFileSync(file, text);
    const want = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const expected: [string, number, boolean][] = want.map((l, i) => [l, i + 1, i < want.length - 1]);
    if (expected.length && expected[expected.length - 1][0] === '') expected.pop();
    for (const chunk of [1, 2, 3, 7, 64, 4096, 1 << 20]) {
      assert.deepEqual(await lines(node, file, chunk), expected, `${name} at chunk ${chunk} (reused buffers)`);
      assert.deepEqual(await lines(plain(node), file, chunk), expected, `${name} at chunk ${chunk} (fresh buffers)`);
    }
  }
});

test('NodeFs.listDirs (worker thread) answers as readDir + stat do, in order, across batches', async () => {
  const dir = tmpDir('list');
  const node = new NodeFs();
  fs.mkdirSync(path.join(dir, 'full', 'artifacts'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'full', 'test-stdout.txt'), 'ok');
  fs.writeFileSync(path.join(dir, 'full', 'reward.json'), '{}');
  fs.symlinkSync(path.join(dir, 'full', 'artifacts'), path.join(dir, 'full', 'link-to-dir'));
  fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'full', 'broken-link'));
  fs.mkdirSync(path.join(dir, 'empty'));
  fs.writeFileSync(path.join(dir, 'a-file'), 'x');
  const many: string[] = [];
  for (let i = 0; i < 600; i++) {
    const d = path.join(dir, 'many', `d${i}`);
    fs.mkdirSync(d, { recursive: true });
    if (i % 3 === 0) fs.writeFileSync(path.join(d, `f${i}`), '');
    many.push(posix(d));
  }
  const paths = ['full', 'empty', 'a-file', 'gone'].map((n) => posix(path.join(dir, n))).concat(many);
  const got = await node.listDirs(paths);
  const sorted = (l: [string, string][] | undefined) => l && [...l].sort((a, b) => a[0].localeCompare(b[0]));
  assert.deepEqual(sorted(got[0]), [
    ['artifacts', 'dir'], ['broken-link', 'other'], ['link-to-dir', 'dir'], ['reward.json', 'file'], ['test-stdout.txt', 'file'],
  ]);
  assert.deepEqual(got[1], []);
  assert.equal(got[2], undefined, 'a file is not a folder');
  assert.equal(got[3], undefined, 'nothing there');
  for (let i = 0; i < paths.length; i++) {
    const list = await node.readDir(paths[i]);
    const want = list.length ? list : (await node.stat(paths[i]))?.type === 'dir' ? [] : undefined;
    assert.deepEqual(sorted(got[i]), sorted(want), paths[i]);
  }
});

test('the summary is byte for byte the same with and without the fast file paths', async () => {
  for (const [label, spec] of [['every-case', nemoEveryCase()], ['large', nemoLarge(300, 3, 2000)]] as const) {
    const dir = path.join(tmpDir(label), 'results', 'harbor', spec.taskset);
    const run = await generateNemoRun(dir, spec);
    const opts = { skipped: run.skipped, unvalidated: run.unvalidated };
    const node = new NodeFs();
    const fast = await buildRunSummary(node, posix(run.rolloutsPath), opts);
    const slow = await buildRunSummary(plain(node), posix(run.rolloutsPath), opts);
    assert.equal(serializeSummary(fast.document), serializeSummary(slow.document), label);
    assert.deepEqual(fast.problems, slow.problems, label);
    assert.ok(fast.document.tasks.length > 0, label);
  }
});

test('DirLister: a stopped lister rejects what was pending, and starts a new worker when asked again', async () => {
  const { DirLister } = await import('../../../src/core/fs/dirLister');
  const dir = tmpDir('lister');
  fs.mkdirSync(path.join(dir, 'a'));
  fs.writeFileSync(path.join(dir, 'a', 'f'), '');
  const lister = new DirLister();
  assert.deepEqual(await lister.list([posix(path.join(dir, 'a'))]), [[['f', 'file']]]);
  const pending = lister.list(Array.from({ length: 2000 }, () => posix(path.join(dir, 'a'))));
  const rejected = assert.rejects(pending, /stopped/);
  await lister.dispose();
  await rejected;
  assert.deepEqual(await lister.list([posix(path.join(dir, 'a')), posix(path.join(dir, 'none'))]), [[['f', 'file']], undefined]);
  await lister.dispose();
});

test('NodeFs.probeDirs (worker thread): the first candidate that is a folder and which names it holds, as readDir says', async () => {
  const dir = posix(tmpDir('probe'));
  fs.mkdirSync(`${dir}/moved/s1/artifacts`, { recursive: true });
  fs.writeFileSync(`${dir}/moved/s1/test-stdout.txt`, 'ok');
  fs.mkdirSync(`${dir}/here/s2`, { recursive: true });
  fs.writeFileSync(`${dir}/here/s2/reward.txt`, '1');
  fs.mkdirSync(`${dir}/here/s2/test-stdout.txt`); // a folder under a file's name is not the file
  fs.writeFileSync(`${dir}/plain`, 'x');
  const names = [['test-stdout.txt', 'file'], ['reward.txt', 'file'], ['artifacts', 'dir']] as const;
  const candidates = [[`${dir}/gone/s1`, `${dir}/moved/s1`], [`${dir}/here/s2`, `${dir}/moved/s2`], [`${dir}/gone/s3`, `${dir}/plain`], [`${dir}/here/s2`]];
  const want = [(1 << 16) | 0b101, 0b010, -1, 0b010];
  const node = new NodeFs();
  assert.deepEqual([...await node.probeDirs(candidates, names)], want);
  // The same answers where no worker runs (candidate by candidate through readDir and stat).
  const { sharedDirLister } = await import('../../../src/core/fs/dirLister');
  const lister = sharedDirLister() as unknown as { probe: unknown };
  const probe = lister.probe;
  lister.probe = () => Promise.reject(new Error('no worker'));
  try { assert.deepEqual([...await node.probeDirs(candidates, names)], want); } finally { lister.probe = probe; }
});

test('NodeFs.probeDirs: a gone parent answers for its folders without listing each, and for a second only', async () => {
  const dir = posix(tmpDir('probe-gone'));
  fs.mkdirSync(`${dir}/now/v/s0`, { recursive: true });
  fs.writeFileSync(`${dir}/now/v/s0/test-stdout.txt`, 'ok');
  fs.writeFileSync(`${dir}/file`, 'x');
  const names = [['test-stdout.txt', 'file']] as const;
  // A results folder moved away: every row's folder under the old root, found where the root is now.
  const many = Array.from({ length: 600 }, (_, i) => [`${dir}/old/v/s${i}`, `${dir}/now/v/s${i}`]);
  many.push([`${dir}/file/s0`, `${dir}/now/v/s0`], [`${dir}/old/v/s0`]);
  const got = [...await new NodeFs().probeDirs(many, names)];
  assert.deepEqual(got.slice(0, 2), [(1 << 16) | 1, -1]);
  assert.ok(got.slice(2, 600).every((v) => v === -1));
  assert.deepEqual(got.slice(600), [(1 << 16) | 1, -1]);
  // The folder appears under the parent that was gone: seen once the answer is older than a second.
  fs.mkdirSync(`${dir}/old/v/s0`, { recursive: true });
  await new Promise((r) => setTimeout(r, 1100));
  assert.deepEqual([...await new NodeFs().probeDirs([[`${dir}/old/v/s0`, `${dir}/now/v/s0`]], names)], [0]);
});

test('NodeFs.gather (worker thread) answers as the plain calls do: listings, texts, missing files, the byte cap', async () => {
  const { gatherWithCalls } = await import('../../../src/core/fs/gather');
  const dir = tmpDir('gather');
  const node = new NodeFs();
  fs.mkdirSync(path.join(dir, 'trial', 'agent'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'trial', 'result.json'), '{"ok": "é"}');
  fs.writeFileSync(path.join(dir, 'trial', 'big.json'), 'x'.repeat(200_000));
  fs.writeFileSync(path.join(dir, 'trial', 'agent', 'trajectory.json'), '{}');
  const at = (...p: string[]) => posix(path.join(dir, ...p));
  const lists = [at('trial'), at('trial', 'agent'), at('trial', 'gone'), at('trial', 'result.json')];
  const reads = [
    { path: at('trial', 'result.json'), maxBytes: 1000 },
    { path: at('trial', 'big.json'), maxBytes: 100_000 },
    { path: at('trial', 'big.json'), maxBytes: 300_000 },
    { path: at('trial', 'nope.json'), maxBytes: 1000 },
    { path: at('trial', 'agent'), maxBytes: 1000 },
  ];
  const got = await node.gather(lists, reads);
  const plainAnswers = await gatherWithCalls(plain(node), lists, reads);
  const sorted = (l: [string, string][] | undefined) => l && [...l].sort((a, b) => a[0].localeCompare(b[0]));
  assert.deepEqual(got.lists.map(sorted), plainAnswers.lists.map(sorted));
  assert.deepEqual(sorted(got.lists[0]), [['agent', 'dir'], ['big.json', 'file'], ['result.json', 'file']]);
  assert.equal(got.lists[2], undefined);
  assert.deepEqual(got.reads[0], { text: '{"ok": "é"}' });
  assert.deepEqual(got.reads[1], { tooBig: 200_000 });
  assert.equal(got.reads[2].text?.length, 200_000);
  assert.deepEqual(got.reads[3], { missing: true });
  assert.ok(got.reads[4].error, 'a folder is not read as a file');
  assert.deepEqual(got.reads.slice(0, 4), plainAnswers.reads.slice(0, 4));
  assert.ok(plainAnswers.reads[4].error);
});
