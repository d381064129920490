// The Node FsPort (core/fs/nodeFs.ts) on its own: the read limit and where it comes from, whole reads past the first
// buffer, chunked reads from an offset, sequential reads, atomic writes (whole and in chunks, a failed one leaves
// nothing behind), links resolved, and removal.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs, maxFileBytesFromEnv } from '../../../src/core/fs/nodeFs';
import { DEFAULT_MAX_FILE_BYTES, isReadRefused } from '../../../src/core/fs/port';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-nodefs-')).split(path.sep).join('/');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function withEnv<T>(value: string | undefined, fn: () => T): T {
  const before = process.env.HARBOR_RUNS_MAX_FILE_MB;
  if (value === undefined) delete process.env.HARBOR_RUNS_MAX_FILE_MB;
  else process.env.HARBOR_RUNS_MAX_FILE_MB = value;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.HARBOR_RUNS_MAX_FILE_MB;
    else process.env.HARBOR_RUNS_MAX_FILE_MB = before;
  }
}

test('the read limit: the option, else HARBOR_RUNS_MAX_FILE_MB when a positive number, else the default', () => {
  assert.equal(withEnv('1.5', () => maxFileBytesFromEnv()), Math.floor(1.5 * 1024 * 1024));
  assert.equal(withEnv('2', () => maxFileBytesFromEnv()), 2 * 1024 * 1024);
  for (const v of [undefined, '', '0', '-3', 'abc', 'Infinity']) assert.equal(withEnv(v, () => maxFileBytesFromEnv()), undefined, String(v));
  assert.equal(withEnv('2', () => new NodeFs().maxFileBytes), 2 * 1024 * 1024);
  assert.equal(withEnv('2', () => new NodeFs({ maxFileBytes: 10 }).maxFileBytes), 10);
  assert.equal(withEnv(undefined, () => new NodeFs().maxFileBytes), DEFAULT_MAX_FILE_BYTES);
});

test('readFile reads a file past its first buffer whole, up to the limit and not a byte over it', async () => {
  const big = Buffer.alloc(100_000, 0);
  for (let i = 0; i < big.length; i++) big[i] = i % 251;
  fs.writeFileSync(`${dir}/big.bin`, big);
  fs.writeFileSync(`${dir}/empty`, '');
  const node = new NodeFs({ maxFileBytes: 100_000 });
  assert.ok(Buffer.from(await node.readFile(`${dir}/big.bin`)).equals(big));
  assert.equal((await node.readFile(`${dir}/empty`)).length, 0);
  await assert.rejects(node.readFile(`${dir}/big.bin`, { maxBytes: 99_999 }), (e) => isReadRefused(e) && e.code === 'too-large'
    && e.message === `${dir}/big.bin is 0.095 MB, over the 0.095 MB read limit (harborRuns.maxFileSizeMB) (not read)`);
  await assert.rejects(new NodeFs({ maxFileBytes: 5000 }).readFile(`${dir}/big.bin`), (e) => isReadRefused(e) && e.code === 'too-large');
  await assert.rejects(node.readFile(dir), (e) => isReadRefused(e) && e.code === 'not-a-file' && /is a folder, not a regular file/.test(e.message));
  await assert.rejects(node.readFile(`${dir}/none`), (e) => (e as NodeJS.ErrnoException).code === 'ENOENT');
});

test('readChunks: chunks of the size asked for, from the byte asked for (a negative start is the file\'s start)', async () => {
  fs.writeFileSync(`${dir}/ten`, '0123456789');
  const node = new NodeFs();
  const chunks = async (size?: number, start?: number) => {
    const out: string[] = [];
    for await (const c of node.readChunks(`${dir}/ten`, size, start)) out.push(Buffer.from(c).toString());
    return out;
  };
  assert.deepEqual(await chunks(4), ['0123', '4567', '89']);
  assert.deepEqual(await chunks(5), ['01234', '56789']);
  assert.deepEqual(await chunks(4, 3), ['3456', '789']);
  assert.deepEqual(await chunks(4, -5), ['0123', '4567', '89']);
  assert.deepEqual(await chunks(4, 10), []);
  assert.deepEqual(await chunks(), ['0123456789']);
});

test('openSequential reads on into the caller\'s buffer; close twice is fine', async () => {
  fs.writeFileSync(`${dir}/seq`, 'abcdefg');
  const r = await new NodeFs().openSequential(`${dir}/seq`);
  const into = new Uint8Array(3);
  const got: string[] = [];
  for (let n; (n = await r.read(into)) > 0;) got.push(Buffer.from(into.subarray(0, n)).toString());
  assert.deepEqual(got, ['abc', 'def', 'g']);
  await r.close();
  await r.close();
});

test('atomic writes: whole or in chunks (each written fully), folders made; a failed write leaves the old file and no temp', async () => {
  const node = new NodeFs();
  await node.writeFileAtomic(`${dir}/w/a/x.txt`, Buffer.from('one'));
  assert.equal(fs.readFileSync(`${dir}/w/a/x.txt`, 'utf8'), 'one');
  async function* parts() { yield Buffer.from('two'); yield Buffer.alloc(200_000, 0x61); yield Buffer.from('!'); }
  await node.writeFileAtomicChunks(`${dir}/w/a/x.txt`, parts());
  const text = fs.readFileSync(`${dir}/w/a/x.txt`, 'utf8');
  assert.equal(text.length, 200_004);
  assert.ok(text.startsWith('twoaaa') && text.endsWith('a!'));
  async function* failing() { yield Buffer.from('half'); throw new Error('producer failed'); }
  await assert.rejects(node.writeFileAtomicChunks(`${dir}/w/a/x.txt`, failing()), /producer failed/);
  assert.equal(fs.readFileSync(`${dir}/w/a/x.txt`, 'utf8').length, 200_004);
  assert.deepEqual(fs.readdirSync(`${dir}/w/a`), ['x.txt'], 'no temp file left');
  await node.syncFolder(`${dir}/nowhere`);
  await node.mkdirp(`${dir}/m/n/o`);
  assert.equal((await node.stat(`${dir}/m/n/o`))?.type, 'dir');
});

test('stat, readDir through links, realpath, realpathDirs and remove', async () => {
  const node = new NodeFs();
  fs.mkdirSync(`${dir}/l/real`, { recursive: true });
  fs.writeFileSync(`${dir}/l/real/f`, 'abc');
  fs.symlinkSync(`${dir}/l/real`, `${dir}/l/link`);
  fs.symlinkSync(`${dir}/l/real/f`, `${dir}/l/flink`);
  fs.symlinkSync(`${dir}/l/missing`, `${dir}/l/broken`);
  const st = await node.stat(`${dir}/l/real/f`);
  assert.equal(st?.type, 'file');
  assert.equal(st?.size, 3);
  assert.ok(st && st.mtimeMs > 0);
  assert.equal(await node.stat(`${dir}/l/none`), undefined);
  assert.deepEqual((await node.readDir(`${dir}/l`)).sort(), [['broken', 'other'], ['flink', 'file'], ['link', 'dir'], ['real', 'dir']]);
  assert.deepEqual(await node.readDir(`${dir}/l/real/f`), [], 'a file is no folder');
  assert.deepEqual(await node.readDir(`${dir}/l/none`), []);
  const real = fs.realpathSync(`${dir}/l/real`).split(path.sep).join('/');
  assert.equal(await node.realpath(`${dir}/l/link/f`), `${real}/f`);
  assert.equal(await node.realpath(`${dir}/l/broken`), undefined);
  assert.equal(await node.realpathDirs(`${dir}/l/link/f`), `${real}/f`);
  assert.equal(await node.realpathDirs(`${dir}/l/link/notyet`), `${real}/notyet`, 'its own name kept');
  assert.equal(await node.realpathDirs(`${dir}/l/none/x`), `${dir}/l/none/x`, 'unresolvable: the path itself');
  await node.remove(`${dir}/l/real/f`);
  await node.remove(`${dir}/l/real/f`);
  assert.equal(fs.existsSync(`${dir}/l/real/f`), false);
});

test('listDirs and probeDirs: entries, [] for an empty folder, undefined / -1 where no folder is', async () => {
  const node = new NodeFs();
  fs.mkdirSync(`${dir}/p/a/sub`, { recursive: true });
  fs.mkdirSync(`${dir}/p/empty`, { recursive: true });
  fs.writeFileSync(`${dir}/p/a/x.txt`, '');
  const lists = await node.listDirs([`${dir}/p/a`, `${dir}/p/empty`, `${dir}/p/none`, `${dir}/p/a/x.txt`]);
  assert.deepEqual(lists.map((l) => l && [...l].sort()), [[['sub', 'dir'], ['x.txt', 'file']], [], undefined, undefined]);
  const probes = await node.probeDirs([[`${dir}/p/none`, `${dir}/p/a`], [`${dir}/p/empty`], [`${dir}/p/none`]],
    [['x.txt', 'file'], ['sub', 'dir'], ['sub', 'file']]);
  assert.deepEqual([...probes], [(1 << 16) | 0b011, 0, -1]);
});

test('listNames: every name in a folder (files, folders, links, odd names) as readDir has them, [] where no folder is', async () => {
  const node = new NodeFs();
  const d = `${dir}/names`;
  fs.mkdirSync(`${d}/sub`, { recursive: true });
  fs.mkdirSync(`${dir}/names-empty`, { recursive: true });
  const odd = ['plain.json', 'with space.json', 'line\nbreak.json', 'tab\there', 'é ü 漢字.json', '.hidden', 'back\\slash'];
  for (const n of odd) fs.writeFileSync(`${d}/${n}`, '');
  fs.symlinkSync(`${d}/sub`, `${d}/link`);
  fs.symlinkSync(`${d}/gone`, `${d}/broken`);
  const want = [...odd, 'sub', 'link', 'broken'].sort();
  assert.deepEqual((await node.readDir(d)).map(([n]) => n).sort(), want);
  assert.deepEqual((await node.listNames(d)).sort(), want);
  assert.deepEqual(await node.listNames(`${dir}/names-empty`), []);
  assert.deepEqual(await node.listNames(`${dir}/names-none`), []);
  assert.deepEqual(await node.listNames(`${d}/plain.json`), []);
});

test('a DirLister of its own: answers in order, rejects what is pending when stopped, starts again when asked again', async () => {
  const { DirLister } = await import('../../../src/core/fs/dirLister');
  fs.mkdirSync(`${dir}/dl/a`, { recursive: true });
  fs.writeFileSync(`${dir}/dl/f`, 'text');
  const lister = new DirLister();
  const [first, second] = await Promise.all([lister.list([`${dir}/dl`]), lister.list([`${dir}/dl/a`, `${dir}/dl/none`])]);
  assert.deepEqual(first.map((l) => l && [...l].sort()), [[['a', 'dir'], ['f', 'file']]]);
  assert.deepEqual(second, [[], undefined]);
  const pending = assert.rejects(lister.list([`${dir}/dl`]), /the folder lister was stopped/);
  await lister.dispose();
  await pending;
  const got = await lister.gather([`${dir}/dl/a`], [{ path: `${dir}/dl/f`, maxBytes: 3 }, { path: `${dir}/dl/f`, maxBytes: 4 }, { path: `${dir}/dl/x`, maxBytes: 4 }, { path: `${dir}/dl/a`, maxBytes: 4 }]);
  assert.deepEqual(got.lists, [[]]);
  assert.deepEqual(got.reads, [{ tooBig: 4 }, { text: 'text' }, { missing: true }, { error: 'a folder, not a file' }]);
  assert.deepEqual(got.stats, []);
  assert.deepEqual([...await lister.probe([[`${dir}/dl/none`, `${dir}/dl`]], [['f', 'file'], ['a', 'dir'], ['a', 'file']])], [(1 << 16) | 0b011]);
  await lister.dispose();
  await lister.dispose();
});

test('a refused read says why: its size in MB against the limit (three decimals under 1 MB), or what the path is', async () => {
  const { ReadRefusedError, tooLargeDetail, notAFileDetail } = await import('../../../src/core/fs/port');
  assert.equal(tooLargeDetail(300 * 1024 * 1024, 256 * 1024 * 1024), 'is 300 MB, over the 256 MB read limit (harborRuns.maxFileSizeMB)');
  assert.equal(tooLargeDetail(1024 * 1024, 512 * 1024), 'is 1 MB, over the 0.500 MB read limit (harborRuns.maxFileSizeMB)');
  assert.equal(notAFileDetail('a FIFO'), 'is a FIFO, not a regular file');
  const e = new ReadRefusedError('/p', 'not-a-file', notAFileDetail('a socket'));
  assert.equal(e.message, '/p is a socket, not a regular file (not read)');
  assert.equal(e.name, 'ReadRefusedError');
  assert.equal(isReadRefused(e), true);
  assert.equal(isReadRefused(new Error('x')), false);
  assert.equal(isReadRefused({ name: 'ReadRefusedError' }), false, 'not an Error');
  assert.equal(isReadRefused(Object.assign(new Error('y'), { name: 'ReadRefusedError' })), true, 'by name (another bundle\'s class)');
});

test('workerBundle finds a worker\'s bundle in a folder above the running bundle, and says when there is none', async () => {
  const { workerBundle } = await import('../../../src/core/fs/workerBundle');
  const found = workerBundle('summaryRowWorker.js');
  assert.ok(found && fs.existsSync(found), String(found));
  assert.equal(path.basename(found), 'summaryRowWorker.js');
  assert.ok(__dirname.startsWith(path.dirname(found)), 'in a folder above this bundle');
  assert.equal(workerBundle('no-such-worker.js'), undefined);
});

test('what the port says of itself and of odd paths: node-local, the size in a refusal, a closed reader, devices and sockets', async () => {
  const node = new NodeFs();
  assert.equal(node.nodeLocal, true);
  assert.deepEqual((await node.gather([dir], [])).stats, [], 'no stats asked for: none answered');
  fs.writeFileSync(`${dir}/hundredk`, Buffer.alloc(100_000));
  await assert.rejects(node.readFile(`${dir}/hundredk`, { maxBytes: 50_000 }),
    (e) => isReadRefused(e) && /is 0\.095 MB, over the 0\.048 MB read limit/.test(e.message), 'the file\'s size, not what was read');
  const r = await node.openSequential(`${dir}/hundredk`);
  await r.close();
  await assert.rejects(r.read(new Uint8Array(4)), 'a closed reader reads nothing');
  if (fs.existsSync('/dev/null')) {
    await assert.rejects(node.readFile('/dev/null'), (e) => isReadRefused(e) && /is a character device, not a regular file/.test(e.message));
  }
  const net = await import('node:net');
  const sock = `${dir}/s.sock`;
  const server = net.createServer();
  await new Promise<void>((res) => server.listen(sock, res));
  try {
    await assert.rejects(node.readFile(sock), (e) => isReadRefused(e) || /ENXIO|EOPNOTSUPP/.test(String(e)));
    assert.deepEqual((await node.readDir(dir)).find(([n]) => n === 's.sock'), ['s.sock', 'other']);
    assert.equal((await node.stat(sock))?.type, 'other');
  } finally {
    await new Promise((res) => server.close(res));
  }
});

test('readFile of a file that says it is empty but is not (a Linux /proc file): read whole past its first buffer, or refused at the limit', async (t) => {
  // /proc/kallsyms is a regular file whose stat size is 0 and whose text runs to megabytes: the first buffer (4 KiB)
  // fills and grows while it is read, as for a file growing while it is read.
  const p = '/proc/kallsyms';
  let whole: Buffer;
  try {
    if (fs.statSync(p).size !== 0) return t.skip('not a /proc file here');
    whole = fs.readFileSync(p);
  } catch {
    return t.skip('no /proc/kallsyms here');
  }
  if (whole.length < 20_000) return t.skip('/proc/kallsyms is short here');
  const node = new NodeFs();
  const got = Buffer.from(await node.readFile(p, { maxBytes: whole.length + 10 }));
  if (!fs.readFileSync(p).equals(whole)) return t.skip('/proc/kallsyms changed while it was read');
  assert.ok(got.equals(whole), 'the same bytes as a plain read');
  // Exactly the limit: still read whole (one byte more would be too many).
  assert.equal((await node.readFile(p, { maxBytes: whole.length })).length, whole.length);
  // Over the limit: refused, with what was read (one byte more than the limit), not the size stat gave (0).
  await assert.rejects(node.readFile(p, { maxBytes: 10_000 }), (e) => isReadRefused(e) && e.code === 'too-large'
    && e.message === `${p} is 0.010 MB, over the 0.010 MB read limit (harborRuns.maxFileSizeMB) (not read)`);
  await assert.rejects(node.readFile(p, { maxBytes: whole.length - 1 }), (e) => isReadRefused(e) && e.code === 'too-large');
  // A limit the growing buffer reaches exactly (4 KiB doubled): the byte past it is still read, and the file refused.
  await assert.rejects(node.readFile(p, { maxBytes: 8192 }), (e) => isReadRefused(e) && e.code === 'too-large');
});

test('readFile refuses a block device without reading it', async (t) => {
  const dev = fs.existsSync('/dev') ? fs.readdirSync('/dev').map((n) => `/dev/${n}`).find((d) => {
    try { return fs.statSync(d).isBlockDevice(); } catch { return false; }
  }) : undefined;
  if (!dev) return t.skip('no block device here');
  await assert.rejects(new NodeFs().readFile(dev), (e) => (isReadRefused(e) && e.code === 'not-a-file'
    && e.message === `${dev} is a block device, not a regular file (not read)`) || /EACCES|EPERM/.test(String(e)));
});

test('no read or write leaves a file open: whole reads (also refused ones), chunked reads broken off, sequential readers, failed atomic writes', async (t) => {
  // The process's open descriptors (Linux): the same count after every kind of read and write as before.
  const open = () => fs.readdirSync('/proc/self/fd').length;
  try { open(); } catch { return t.skip('no /proc/self/fd here'); }
  const node = new NodeFs();
  fs.writeFileSync(`${dir}/fd.txt`, 'x'.repeat(10_000));
  fs.mkdirSync(`${dir}/fd-dir`, { recursive: true });
  const before = open();
  for (let i = 0; i < 20; i++) {
    await node.readFile(`${dir}/fd.txt`);
    await assert.rejects(node.readFile(`${dir}/fd.txt`, { maxBytes: 10 }));
    await assert.rejects(node.readFile(`${dir}/fd-dir`));
    for await (const c of node.readChunks(`${dir}/fd.txt`, 100)) { assert.equal(c.length, 100); break; }
    const r = await node.openSequential(`${dir}/fd.txt`);
    await r.close();
    async function* failing() { yield Buffer.from('half'); throw new Error('producer failed'); }
    await assert.rejects(node.writeFileAtomicChunks(`${dir}/fd-out.txt`, failing()), /producer failed/);
    await node.writeFileAtomic(`${dir}/fd-out.txt`, Buffer.from('whole'));
    await node.syncFolder(dir);
  }
  assert.equal(open(), before, 'descriptors left open');
});

test('readFile of a FIFO with no writer is refused at once, not waited on', async (t) => {
  const fifo = `${dir}/fifo`;
  fs.rmSync(fifo, { force: true }); // (the suite may run again in one process, as under the mutation runner)
  try {
    (await import('node:child_process')).execFileSync('mkfifo', [fifo]);
  } catch {
    return t.skip('no mkfifo here');
  }
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'waited'>((res) => { timer = setTimeout(() => res('waited'), 5000); });
  const got = await Promise.race([new NodeFs().readFile(fifo).then(() => 'read', (e: unknown) => e), waited]);
  clearTimeout(timer);
  if (got === 'waited') {
    // Let the open that waits for a writer go (a writer that closes at once) before failing.
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    assert.fail('the open of a FIFO waited for a writer');
  }
  assert.ok(isReadRefused(got) && got.code === 'not-a-file' && got.message === `${fifo} is a FIFO, not a regular file (not read)`, String(got));
});

test('a DirLister read of bytes that are not UTF-8 says the first line holding them', async () => {
  const { DirLister } = await import('../../../src/core/fs/dirLister');
  fs.writeFileSync(`${dir}/bad.txt`, Buffer.from([0x61, 0x0a, 0x62, 0x0a, 0xff]));
  const lister = new DirLister();
  try {
    assert.deepEqual((await lister.gather([], [{ path: `${dir}/bad.txt`, maxBytes: 100 }])).reads, [{ text: 'a\nb\n\ufffd', badUtf8Line: 3 }]);
  } finally {
    await lister.dispose();
  }
});

test('a DirLister read is the whole file at every size about its first buffer, and a file whose size says 0 (a /proc file) is read whole', async () => {
  const { DirLister } = await import('../../../src/core/fs/dirLister');
  const sizes = [0, 1, 65535, 65536, 65537, 131071, 131072, 131073, 300001];
  for (const n of sizes) fs.writeFileSync(`${dir}/size-${n}.txt`, Buffer.alloc(n, 0x61 + (n % 26)));
  const lister = new DirLister();
  try {
    const got = await lister.gather([], sizes.map((n) => ({ path: `${dir}/size-${n}.txt`, maxBytes: 1 << 20 })));
    assert.deepEqual(got.reads.map((r) => r.text?.length), sizes);
    sizes.forEach((n, i) => assert.equal(got.reads[i].text, fs.readFileSync(`${dir}/size-${n}.txt`, 'utf8')));
    if (fs.existsSync('/proc/self/status') && fs.statSync('/proc/self/status').size === 0) {
      const proc = (await lister.gather([], [{ path: '/proc/self/status', maxBytes: 1 << 20 }])).reads[0].text ?? '';
      assert.match(proc, /^Name:/);
      assert.match(proc, /\nVmRSS:|\nThreads:/, 'read past its first read');
    }
  } finally {
    await lister.dispose();
  }
});

test('temp files of atomic writes are recognised by their whole name, with or without a folder', async () => {
  const { isAtomicTempPath } = await import('../../../src/core/fs/port');
  assert.equal(isAtomicTempPath('.x.json.12.ab.tmp'), true);
  assert.equal(isAtomicTempPath('/runs/.x.json.12.ab.tmp'), true);
  assert.equal(isAtomicTempPath('/runs/.x.json.12.ab.tmp.old'), false);
  assert.equal(isAtomicTempPath('/runs/a.x.json.12.ab.tmp'), false);
});

test('probeDirs: children of one folder probed in any order of present and missing (a miss makes the next one stat-ed first) answer as listing each would', async () => {
  const node = new NodeFs();
  const d = `${dir}/probe-mixed`;
  fs.mkdirSync(`${d}/a`, { recursive: true });
  fs.mkdirSync(`${d}/b`, { recursive: true });
  fs.mkdirSync(`${d}/empty`, { recursive: true });
  fs.writeFileSync(`${d}/a/reward.txt`, '1');
  fs.writeFileSync(`${d}/b/test-stdout.txt`, '');
  fs.writeFileSync(`${d}/file`, '');
  fs.symlinkSync(`${d}/a`, `${d}/link`);
  fs.symlinkSync(`${d}/gone`, `${d}/broken`);
  const names: [string, 'file' | 'dir'][] = [['reward.txt', 'file'], ['test-stdout.txt', 'file']];
  const want: Record<string, number> = {
    a: 0b01, b: 0b10, empty: 0, link: 0b01, file: -1, broken: -1, none: -1, 'none/deeper': -1, 'file/x': -1,
  };
  // Every order of misses and hits: hits after misses, misses after hits, two misses then a link, a file after a miss.
  const orders = [
    ['none', 'a', 'none', 'none', 'b', 'file', 'empty', 'broken', 'link', 'none', 'file/x', 'a'],
    ['a', 'b', 'none', 'link', 'broken', 'empty', 'none/deeper', 'file', 'b', 'none', 'none', 'empty'],
  ];
  for (const order of orders) {
    const got = await node.probeDirs(order.map((n) => [`${d}/${n}`]), names);
    assert.deepEqual([...got], order.map((n) => want[n]), order.join(' '));
  }
  // A second candidate is tried after a miss, as before.
  const two = await node.probeDirs([[`${d}/none`, `${d}/b`], [`${d}/none2`, `${d}/empty`], [`${d}/none3`, `${d}/none4`]], names);
  assert.deepEqual([...two], [(1 << 16) | 0b10, 1 << 16, -1]);
});
