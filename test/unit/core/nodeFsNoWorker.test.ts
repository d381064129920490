// NodeFs when the folder lister's worker thread is gone: listDirs, probeDirs and gather then answer through plain
// calls on the main thread (core/fs/nodeFs.ts, the `catch` of each), with the same answers the worker gives. The
// process's shared lister is made to fail here the way a worker that dies does: its thread throws (a message it
// cannot handle), the call in flight is rejected with that error, and every later call is refused at once (no restart).
// This file has its own bundle, so its shared lister is its own: no other test file loses its worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { DirLister, sharedDirLister } from '../../../src/core/fs/dirLister';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-noworker-')).split(path.sep).join('/');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const sorted = (lists: ([string, string][] | undefined)[]) => lists.map((l) => l && [...l].sort((a, b) => (a[0] < b[0] ? -1 : 1)));

before(async () => {
  fs.mkdirSync(`${dir}/t/a/sub`, { recursive: true });
  fs.mkdirSync(`${dir}/t/empty`, { recursive: true });
  fs.mkdirSync(`${dir}/t/b`, { recursive: true });
  fs.writeFileSync(`${dir}/t/a/x.txt`, 'hello');
  fs.writeFileSync(`${dir}/t/a/sub.txt`, '');
  fs.writeFileSync(`${dir}/t/b/sub`, 'a file named like the folder');
  fs.writeFileSync(`${dir}/t/big.txt`, '0123456789');
  fs.writeFileSync(`${dir}/t/bad.txt`, Buffer.from([0x61, 0x0a, 0x62, 0x0a, 0xff, 0x0a]));
  fs.symlinkSync(`${dir}/t/a`, `${dir}/t/link-to-a`);
  fs.symlinkSync(`${dir}/t/a/sub`, `${dir}/t/a/sublink`);
  fs.symlinkSync(`${dir}/t/gone`, `${dir}/t/a/broken`);
  // The shared lister's thread fails on a message without paths (it reads `paths.length`): the call is rejected with
  // the thread's own error, and the lister stays failed.
  const shared = sharedDirLister();
  await assert.rejects(shared.list(undefined as unknown as string[]), (e) => e instanceof Error && /length/.test(e.message));
});

test('the failed lister refuses every later call at once, with the worker\'s error, and does not start again', async () => {
  // A lister of its own, failed the same way: the call in flight is rejected with the thread's error, later calls too.
  const failed = new DirLister();
  await assert.rejects(failed.list(undefined as unknown as string[]), (e) => e instanceof Error && /length/.test(e.message));
  await assert.rejects(failed.list([`${dir}/t`]), /length/);
  await assert.rejects(failed.probe([[`${dir}/t`]], []), /length/);
  await failed.dispose();
  await assert.rejects(failed.list([`${dir}/t`]), /length/, 'still failed after dispose');
  const shared = sharedDirLister();
  await assert.rejects(shared.list([`${dir}/t`]), /length/);
  await assert.rejects(shared.probe([[`${dir}/t`]], []), /length/);
  await assert.rejects(shared.gather([], [], []), /length/);
  // A lister of its own still has a worker: it answers.
  const own = new DirLister();
  try {
    assert.deepEqual(sorted(await own.list([`${dir}/t/empty`, `${dir}/t/none`])), [[], undefined]);
  } finally {
    await own.dispose();
  }
});

test('listDirs without a worker: entries (links as what they point to), [] for an empty folder, undefined where no folder is', async () => {
  const node = new NodeFs();
  const paths = [`${dir}/t/a`, `${dir}/t/empty`, `${dir}/t/none`, `${dir}/t/a/x.txt`, `${dir}/t/link-to-a`, `${dir}/t/none/deeper`];
  const got = sorted(await node.listDirs(paths));
  const a = [['broken', 'other'], ['sub', 'dir'], ['sub.txt', 'file'], ['sublink', 'dir'], ['x.txt', 'file']];
  assert.deepEqual(got, [a, [], undefined, undefined, a, undefined]);
  assert.deepEqual(await node.listDirs([]), []);
  // The same answers as a worker gives.
  const own = new DirLister();
  try {
    assert.deepEqual(sorted(await own.list(paths)), got);
  } finally {
    await own.dispose();
  }
});

test('listNames without a worker: the names readDir gives, [] where no folder is', async () => {
  const node = new NodeFs();
  assert.deepEqual((await node.listNames(`${dir}/t/a`)).sort(), ['broken', 'sub', 'sub.txt', 'sublink', 'x.txt']);
  assert.deepEqual(await node.listNames(`${dir}/t/empty`), []);
  assert.deepEqual(await node.listNames(`${dir}/t/none`), []);
  assert.deepEqual(await node.listNames(`${dir}/t/big.txt`), []);
});

test('probeDirs without a worker: the first candidate that is a folder, and which wanted names it holds with their type', async () => {
  const node = new NodeFs();
  const names: [string, 'file' | 'dir'][] = [['x.txt', 'file'], ['sub', 'dir'], ['sub', 'file'], ['sub.txt', 'file'], ['nope', 'file']];
  const candidates = [
    [`${dir}/t/none`, `${dir}/t/a/x.txt`, `${dir}/t/a`], // a missing folder and a file are passed over: the third
    [`${dir}/t/empty`, `${dir}/t/a`], // an empty folder is a folder: the first, no names
    [`${dir}/t/none`], // no folder: -1
    [`${dir}/t/b`, `${dir}/t/a`], // `sub` there is a file, not the folder
    [], // no candidates: -1
    [`${dir}/t/none`, `${dir}/t/none2`, `${dir}/t/none3`, `${dir}/t/link-to-a`], // the fourth, through a link
  ];
  const got = [...await node.probeDirs(candidates, names)];
  assert.deepEqual(got, [(2 << 16) | 0b1011, 0, -1, 0b100, -1, (3 << 16) | 0b1011]);
  assert.deepEqual([...await node.probeDirs([], names)], []);
  const own = new DirLister();
  try {
    assert.deepEqual([...await own.probe(candidates, names)], got);
  } finally {
    await own.dispose();
  }
});

test('gather without a worker: folders listed, files read up to their cap, stats; the same answers as a worker', async () => {
  const node = new NodeFs();
  const lists = [`${dir}/t/b`, `${dir}/t/none`, `${dir}/t/empty`];
  const reads = [
    { path: `${dir}/t/a/x.txt`, maxBytes: 5 }, { path: `${dir}/t/big.txt`, maxBytes: 9 }, { path: `${dir}/t/none.txt`, maxBytes: 9 },
    { path: `${dir}/t/a`, maxBytes: 9 }, { path: `${dir}/t/bad.txt`, maxBytes: 100 },
  ];
  const stats = [`${dir}/t/big.txt`, `${dir}/t/a`, `${dir}/t/none`];
  const got = await node.gather(lists, reads, stats);
  assert.deepEqual(sorted(got.lists), [[['sub', 'file']], undefined, []]);
  assert.deepEqual(got.reads.slice(0, 3), [{ text: 'hello' }, { tooBig: 10 }, { missing: true }]);
  assert.ok('error' in got.reads[3], JSON.stringify(got.reads[3]));
  assert.deepEqual(got.reads[4], { text: 'a\nb\n\ufffd\n', badUtf8Line: 3 });
  assert.deepEqual(got.stats.map((s) => s && { type: s.type, size: s.type === 'file' ? s.size : undefined }),
    [{ type: 'file', size: 10 }, { type: 'dir', size: undefined }, undefined]);
  assert.equal(got.stats[0]?.mtimeMs, fs.statSync(`${dir}/t/big.txt`).mtimeMs);
  // stats left out: none asked for.
  assert.deepEqual((await node.gather([], [{ path: `${dir}/t/a/x.txt`, maxBytes: 100 }])).stats, []);
  const own = new DirLister();
  try {
    const w = await own.gather(lists, reads, stats);
    assert.deepEqual(sorted(w.lists), sorted(got.lists));
    assert.deepEqual(w.reads.slice(0, 3), got.reads.slice(0, 3));
    assert.deepEqual(w.reads[4], got.reads[4]);
    assert.deepEqual(w.stats, got.stats);
  } finally {
    await own.dispose();
  }
});

/** `p`, or a rejection after `ms` (a call that never settles fails the test at once, not at the runner's timeout). */
function within<T>(p: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

test('a lister whose worker exits on its own, without an error: the call in flight and every later one are refused', async () => {
  const exits = new DirLister("require('node:worker_threads').parentPort.once('message', () => process.exit(0));");
  try {
    await assert.rejects(within(exits.list([`${dir}/t`])), /the folder lister exited/);
    await assert.rejects(within(exits.list([`${dir}/t`])), /the folder lister exited/, 'refused at once, no new worker');
    await assert.rejects(within(exits.probe([[`${dir}/t`]], [])), /the folder lister exited/);
  } finally {
    await exits.dispose();
  }
  // A worker ended by dispose is no failure: the lister starts another on its next call.
  const own = new DirLister();
  try {
    assert.deepEqual(sorted(await within(own.list([`${dir}/t/empty`]))), [[]]);
    await own.dispose();
    assert.deepEqual(sorted(await within(own.list([`${dir}/t/empty`, `${dir}/t/none`]))), [[], undefined]);
  } finally {
    await own.dispose();
  }
});

test('an answer for a call that is no longer waiting (e.g. one answered after dispose) is ignored: the calls get their own answers', async () => {
  // A worker that first answers an id nobody is waiting for, then the call's own.
  const stray = new DirLister(`const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  parentPort.postMessage({ id: m.id + 1000, out: 'not for anyone' });
  parentPort.postMessage({ id: m.id, out: [['answer-' + m.id, 'file']] });
});`);
  try {
    assert.deepEqual(await within(stray.list(['/a'])), [['answer-1', 'file']]);
    assert.deepEqual(await within(Promise.all([stray.list(['/b']), stray.list(['/c'])])), [[['answer-2', 'file']], [['answer-3', 'file']]]);
  } finally {
    await stray.dispose();
  }
});
