// Many folders listed and small files read in one call (core/fs/gather.ts): through the port's own gather when it has
// one, else (or when that fails) the same answers from readDir / stat / readFile, a few calls at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Gathered, gather, gatherWithCalls } from '../../../src/core/fs/gather';
import type { FsPort } from '../../../src/core/fs/port';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { MemFs } from '../../../scripts/sample-runs/memFs';

function mem(): MemFs {
  const m = new MemFs();
  m.put('/j/t1/result.json', '{"ok": "é"}');
  m.put('/j/t1/agent/trajectory.json', '{}');
  m.put('/j/t1/big.json', 'x'.repeat(5000));
  m.put('/j/t1/bad.txt', new Uint8Array([0x61, 0x0a, 0x62, 0x0a, 0xff, 0x0a]));
  m.put('/j/t2/result.json', '{}');
  return m;
}

test('gatherWithCalls: listings (undefined where no folder is), texts, the byte cap, missing files, folders, bad UTF-8', async () => {
  const m = mem();
  await m.mkdirp('/j/empty');
  const got = await gatherWithCalls(m,
    ['/j/t1', '/j/empty', '/j/gone', '/j/t1/result.json'],
    [
      { path: '/j/t1/result.json', maxBytes: 100 },
      { path: '/j/t1/big.json', maxBytes: 4999 },
      { path: '/j/t1/big.json', maxBytes: 5000 },
      { path: '/j/t1/nope.json', maxBytes: 100 },
      { path: '/j/t1/agent', maxBytes: 100 },
      { path: '/j/t1/bad.txt', maxBytes: 100 },
    ],
    ['/j/t2/result.json', '/j/t1', '/j/none']);
  assert.deepEqual(got.lists, [
    [['agent', 'dir'], ['bad.txt', 'file'], ['big.json', 'file'], ['result.json', 'file']],
    [],
    undefined,
    undefined,
  ]);
  assert.deepEqual(got.reads[0], { text: '{"ok": "é"}' });
  assert.deepEqual(got.reads[1], { tooBig: 5000 });
  assert.equal(got.reads[2].text, 'x'.repeat(5000));
  assert.deepEqual(got.reads[3], { missing: true });
  assert.deepEqual(got.reads[4], { error: 'a folder, not a file' });
  assert.deepEqual(got.reads[5], { text: 'a\nb\n\ufffd\n', badUtf8Line: 3 });
  assert.deepEqual(got.stats, [{ type: 'file', size: 2, mtimeMs: 0 }, { type: 'dir', size: 0, mtimeMs: 0 }, undefined]);
  assert.deepEqual(await gatherWithCalls(m, [], []), { lists: [], reads: [], stats: [] });
});

test('gatherWithCalls: a byte order mark is kept in the text; a read that fails is an error, or missing once the file is gone', async () => {
  const m = mem();
  m.put('/j/bom.json', new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  const failing: FsPort = Object.assign(Object.create(m) as MemFs, {
    readFile: async (p: string) => {
      if (p === '/j/t2/result.json') await m.remove(p); // gone between the stat and the read
      throw new Error(`cannot read ${p}`);
    },
    readDir: async () => { throw new Error('cannot list'); },
  });
  assert.deepEqual((await gatherWithCalls(m, [], [{ path: '/j/bom.json', maxBytes: 10 }])).reads, [{ text: '\ufeff{}' }]);
  const got = await gatherWithCalls(failing, ['/j/t1', '/j/gone'],
    [{ path: '/j/t1/result.json', maxBytes: 100 }, { path: '/j/t2/result.json', maxBytes: 100 }]);
  assert.deepEqual(got.lists, [[], undefined], 'a folder that cannot be listed is empty; no folder, undefined');
  assert.deepEqual(got.reads, [{ error: 'cannot read /j/t1/result.json' }, { missing: true }]);
});

test('gatherWithCalls keeps the order of what was asked, past the calls it makes at once', async () => {
  const m = new MemFs();
  const n = 40;
  for (let i = 0; i < n; i++) m.put(`/d${i}/f`, `${i}`);
  let inFlight = 0;
  let most = 0;
  const slow: FsPort = Object.assign(Object.create(m) as MemFs, {
    readFile: async (p: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, (n - Number(p.slice(2, -2))) % 7));
      inFlight--;
      return m.readFile(p);
    },
  });
  const got = await gatherWithCalls(slow, Array.from({ length: n }, (_, i) => `/d${i}`),
    Array.from({ length: n }, (_, i) => ({ path: `/d${i}/f`, maxBytes: 10 })));
  assert.deepEqual(got.reads.map((r) => r.text), Array.from({ length: n }, (_, i) => `${i}`));
  assert.deepEqual(got.lists, Array.from({ length: n }, () => [['f', 'file']]));
  assert.ok(most > 1 && most <= 16, `${most} reads at once`);
});

test('gather: the port\'s own gather when it has one; the plain calls when it has none or it fails; nothing asked, no call', async () => {
  const m = mem();
  const asked: string[] = [];
  const own: Gathered = { lists: [[['x', 'file']]], reads: [{ text: 'from the port' }], stats: [undefined] };
  const withGather: FsPort = Object.assign(Object.create(m) as MemFs, {
    gather: async (lists: readonly string[]) => { asked.push(...lists); return own; },
  });
  assert.deepEqual(await gather(withGather, ['/j/t1'], [{ path: '/j/t1/result.json', maxBytes: 100 }], ['/j']), own);
  assert.deepEqual(asked, ['/j/t1']);
  assert.deepEqual(await gather(withGather, [], [], []), { lists: [], reads: [], stats: [] });
  assert.deepEqual(await gather(withGather, [], []), { lists: [], reads: [], stats: [] });
  assert.deepEqual(asked, ['/j/t1'], 'nothing asked: the port is not called');
  assert.deepEqual((await gather(withGather, [], [], ['/j'])).reads, own.reads, 'stats alone are asked for');
  assert.deepEqual((await gather(withGather, [], [{ path: '/j/t2/result.json', maxBytes: 9 }])).reads, own.reads);

  const failing: FsPort = Object.assign(Object.create(m) as MemFs, { gather: async () => { throw new Error('no worker'); } });
  const plainAnswers = await gatherWithCalls(m, ['/j/t1', '/j/gone'], [{ path: '/j/t2/result.json', maxBytes: 9 }], ['/j']);
  assert.deepEqual(await gather(failing, ['/j/t1', '/j/gone'], [{ path: '/j/t2/result.json', maxBytes: 9 }], ['/j']), plainAnswers);
  assert.deepEqual(await gather(m, ['/j/t1', '/j/gone'], [{ path: '/j/t2/result.json', maxBytes: 9 }], ['/j']), plainAnswers);
  assert.deepEqual(plainAnswers.reads, [{ text: '{}' }]);
  assert.deepEqual(plainAnswers.stats, [{ type: 'dir', size: 0, mtimeMs: 0 }]);
});

test('NodeFs.gather (its worker thread) answers as the plain calls do', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-gather-')).split(path.sep).join('/');
  try {
    fs.mkdirSync(`${dir}/t/agent`, { recursive: true });
    fs.writeFileSync(`${dir}/t/result.json`, '{"ok": "é"}');
    fs.writeFileSync(`${dir}/t/big.json`, 'x'.repeat(70_000));
    fs.writeFileSync(`${dir}/t/bad.txt`, Buffer.from([0x61, 0x0a, 0xc3, 0x28]));
    const node = new NodeFs();
    const lists = [`${dir}/t`, `${dir}/t/agent`, `${dir}/gone`, `${dir}/t/result.json`];
    const reads = [
      { path: `${dir}/t/result.json`, maxBytes: 1000 },
      { path: `${dir}/t/big.json`, maxBytes: 69_999 },
      { path: `${dir}/t/big.json`, maxBytes: 70_000 },
      { path: `${dir}/t/nope.json`, maxBytes: 1000 },
      { path: `${dir}/t/bad.txt`, maxBytes: 1000 },
    ];
    const stats = [`${dir}/t/result.json`, `${dir}/nope`];
    const got = await node.gather(lists, reads, stats);
    const plain: FsPort = Object.assign(Object.create(node) as NodeFs, { gather: undefined });
    const calls = await gather(plain, lists, reads, stats);
    const sorted = (l: [string, string][] | undefined) => l && [...l].sort((a, b) => a[0].localeCompare(b[0]));
    assert.deepEqual(got.lists.map(sorted), calls.lists.map(sorted));
    assert.deepEqual(sorted(got.lists[0]), [['agent', 'dir'], ['bad.txt', 'file'], ['big.json', 'file'], ['result.json', 'file']]);
    assert.deepEqual(got.reads, calls.reads);
    assert.deepEqual(got.reads.map((r) => r.text?.length ?? r), [11, { tooBig: 70_000 }, 70_000, { missing: true }, 4]);
    assert.deepEqual(got.reads[4], { text: 'a\n\ufffd(', badUtf8Line: 2 });
    assert.deepEqual(got.stats, calls.stats);
    assert.equal(got.stats[0]?.size, 12);
    assert.equal(got.stats[1], undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('gather: folders alone are listed; a file whose first byte is not UTF-8 is on line 1', async () => {
  const m = mem();
  m.put('/j/bad0', new Uint8Array([0xff, 0x0a, 0x61]));
  assert.deepEqual((await gather(m, ['/j/t2'], [])).lists, [[['result.json', 'file']]]);
  assert.deepEqual((await gather(m, [], [{ path: '/j/bad0', maxBytes: 10 }])).reads, [{ text: '\ufffd\na', badUtf8Line: 1 }]);
});
