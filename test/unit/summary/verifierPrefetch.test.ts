// The verifier folders' probe as docs/run-summary.md describes it ("Verifier folders are probed while the rows are
// scanned"): with probeDirs in batches of 256, the scan paused when more than 8 batches wait; otherwise a pool of 48
// with a pause above 2048 waiting; one or two candidates per folder (where the row names it, and where a moved results
// root puts it, the root known from the run config or guessed from the rows' first 64 folders); folders named through
// `..` located after the scan (resolveMissing), links resolved before the `..` is applied. On an in-memory FsPort whose
// calls are counted and can be held, so what goes to the disk, when, and what each folder's answer is are all seen.
// A prefetch answer of 'slow' sends the folder to resolveMissing: the summary is the same either way, so these tests
// ask the prefetch itself (buildRunSummary's tests cannot tell a prefetch that found a folder from one that gave up).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { EntryType, FsPort } from '../../../src/core/fs/port';
import { PathRelator } from '../../../src/core/summary/paths';
import { MovedRoot, Pool, resolveMissing, VerifierPrefetch, type VerifierPaths } from '../../../src/core/summary/verification';

type Entry = [string, EntryType];

const tick = () => new Promise<void>((r) => setImmediate(r));
async function settle(n = 5): Promise<void> { for (let i = 0; i < n; i++) await tick(); }

/** Folders (with their entries), files and folder links in memory; every disk call counted; calls can be held. */
class MemFs {
  readonly folders = new Map<string, Entry[]>();
  readonly files = new Set<string>();
  /** A folder path that is a link to another folder (resolved by realpathDirs in the parents of a path). */
  readonly links = new Map<string, string>();
  readonly readDirs: string[] = [];
  readonly stats: string[] = [];
  readonly probes: string[][][] = [];
  /** While set, readDir and probeDirs wait: each call's release is queued here. */
  hold = false;
  readonly held: (() => void)[] = [];
  failProbes = false;

  /** A folder holding `entries` (`name` a file, `name/` a folder); its parents are made too. */
  folder(p: string, ...entries: string[]): this {
    for (let up = p; up !== '/'; up = up.slice(0, up.lastIndexOf('/')) || '/') {
      const parent = up.slice(0, up.lastIndexOf('/')) || '/';
      const name = up.slice(up.lastIndexOf('/') + 1);
      const list = this.folders.get(parent) ?? [];
      if (!list.some(([n]) => n === name)) list.push([name, 'dir']);
      this.folders.set(parent, list);
    }
    const list = this.folders.get(p) ?? [];
    for (const e of entries) {
      if (e.endsWith('/')) { list.push([e.slice(0, -1), 'dir']); this.folders.set(`${p}/${e.slice(0, -1)}`, []); }
      else { list.push([e, 'file']); this.files.add(`${p}/${e}`); }
    }
    this.folders.set(p, list);
    return this;
  }

  private async wait(): Promise<void> {
    if (this.hold) await new Promise<void>((r) => this.held.push(r));
  }

  /** A folder that is a link stands for the folder it leads to. */
  private to(p: string): string { return this.links.get(p) ?? p; }

  async stat(p: string) {
    this.stats.push(p);
    p = this.to(p);
    if (this.folders.has(p)) return { type: 'dir' as const, size: 0, mtimeMs: 0 };
    if (this.files.has(p)) return { type: 'file' as const, size: 0, mtimeMs: 0 };
    return undefined;
  }

  async readDir(p: string): Promise<Entry[]> {
    this.readDirs.push(p);
    await this.wait();
    return [...(this.folders.get(this.to(p)) ?? [])];
  }

  /** Links of the parents resolved, `..` applied after (as realpath does), the own name kept; throws when gone. */
  async realpathDirs(p: string): Promise<string> {
    const slash = p.lastIndexOf('/');
    let cur = '';
    for (const seg of p.slice(0, slash).split('/').filter(Boolean)) {
      if (seg === '.') continue;
      cur = seg === '..' ? cur.slice(0, cur.lastIndexOf('/')) : `${cur}/${seg}`;
      cur = this.links.get(cur) ?? cur;
      if (cur && !this.folders.has(cur)) throw new Error(`ENOENT: ${cur}`);
    }
    return `${cur}/${p.slice(slash + 1)}`;
  }

  /** FsPort.probeDirs as the port describes it. */
  async probeDirsImpl(candidates: readonly (readonly string[])[], names: readonly (readonly [string, EntryType])[]): Promise<Int32Array> {
    this.probes.push(candidates.map((c) => [...c]));
    await this.wait();
    if (this.failProbes) throw new Error('worker gone');
    const out = new Int32Array(candidates.length).fill(-1);
    candidates.forEach((c, i) => {
      const at = c.findIndex((d) => this.folders.has(this.to(d)));
      if (at < 0) return;
      let bits = 0;
      for (const [name, type] of this.folders.get(this.to(c[at]))!) names.forEach(([n, t], k) => { if (n === name && t === type) bits |= 1 << k; });
      out[i] = (at << 16) | bits;
    });
    return out;
  }

  release(n = this.held.length): void {
    for (const r of this.held.splice(0, n)) r();
  }

  port(withProbeDirs: boolean): FsPort {
    const port = { stat: (p: string) => this.stat(p), readDir: (p: string) => this.readDir(p), realpathDirs: (p: string) => this.realpathDirs(p),
      probeDirs: withProbeDirs ? (c: readonly (readonly string[])[], n: readonly (readonly [string, EntryType])[]) => this.probeDirsImpl(c, n) : undefined };
    return port as unknown as FsPort;
  }
}

const paths = (v: VerifierPaths | 'slow' | undefined) => (v === 'slow' || v === undefined ? v
  : [v.verifier_logs, v.test_stdout, v.reward_file, v.trajectory, v.artifacts, v.missing]);
const held = (logs: string, ...files: (string | null)[]) => [logs, ...files, []];
const probed = (fs: MemFs) => fs.probes.flat().map((c) => c[0]);

/** A prefetch for a summary in /res (the results folder), its relator's folder already resolved. */
async function setup(withProbeDirs: boolean, root: MovedRoot | null = null, limit = 48) {
  const fs = new MemFs().folder('/res');
  const port = fs.port(withProbeDirs);
  const rel = await PathRelator.create(port, '/res/out_run_summary.json');
  return { fs, port, rel, prefetch: () => new VerifierPrefetch(port, rel, '/res', root, limit) };
}

for (const withProbeDirs of [true, false]) {
  const how = withProbeDirs ? 'probeDirs' : 'this thread';

  test(`prefetch (${how}): each folder's own paths, once; a gone folder is located after the scan; never asked → slow`, async () => {
    const { fs, prefetch } = await setup(withProbeDirs);
    fs.folder('/res/v/s0', 'test-stdout.txt', 'reward.json', 'artifacts/');
    fs.folder('/res/v/s1', 'reward.txt', 'trajectory.json');
    fs.folder('/res/v/s2');
    fs.folder('/res/v/s3', 'artifacts', 'trajectory.json/');
    const p = prefetch();
    for (const d of ['/res/v/s0', '/res/v/s1', '/res/v/s2', '/res/v/s3', '/res/v/gone', '/res/v/s1']) p.add(d);
    assert.equal(p.backpressure(), undefined);
    await settle();
    // Each folder probed once (s1 was added twice).
    assert.deepEqual((withProbeDirs ? probed(fs) : fs.readDirs).sort(), ['/res/v/gone', '/res/v/s0', '/res/v/s1', '/res/v/s2', '/res/v/s3']);
    assert.deepEqual(paths(await p.take('/res/v/s0')), held('v/s0', 'v/s0/test-stdout.txt', 'v/s0/reward.json', null, 'v/s0/artifacts'));
    assert.deepEqual(paths(await p.take('/res/v/s1')), held('v/s1', null, 'v/s1/reward.txt', 'v/s1/trajectory.json', null));
    assert.deepEqual(paths(await p.take('/res/v/s2')), held('v/s2', null, null, null, null));
    assert.deepEqual(paths(await p.take('/res/v/s3')), held('v/s3', null, null, null, null));
    // Not where the row names it and no moved root known: located after the scan.
    assert.equal(await p.take('/res/v/gone'), 'slow');
    // An answer is handed back once (the prefetch forgets it); a folder never added is not probed now.
    assert.equal(await p.take('/res/v/s0'), 'slow');
    assert.equal(await p.take('/res/v/never'), 'slow');
    assert.equal(p.takeNow('/res/v/never'), undefined);
    assert.ok(!(withProbeDirs ? probed(fs) : fs.readDirs).includes('/res/v/never'));
  });

  test(`prefetch (${how}): a relative folder is under the results folder; one named through .. or . is located after the scan`, async () => {
    const { fs, prefetch } = await setup(withProbeDirs);
    fs.folder('/res/v/s0', 'test-stdout.txt');
    fs.folder('/res/v/s1', 'reward.txt');
    const p = prefetch();
    for (const d of ['v/s0', '/res/v/x/../s1', '/res/v/./s1', '/res//v/s1']) p.add(d);
    p.backpressure();
    await settle();
    assert.deepEqual(withProbeDirs ? probed(fs) : fs.readDirs, ['/res/v/s0']);
    assert.deepEqual(paths(await p.take('v/s0')), held('v/s0', 'v/s0/test-stdout.txt', null, null, null));
    for (const d of ['/res/v/x/../s1', '/res/v/./s1', '/res//v/s1']) assert.equal(await p.take(d), 'slow', d);
  });

  test(`prefetch (${how}): takeNow answers only a settled probe whose parent is located; take waits for both`, async () => {
    const fs = new MemFs().folder('/res').folder('/res/v/s0', 'test-stdout.txt').folder('/res/v/s1', 'reward.txt').folder('/res/w/s2', 'reward.txt');
    const port = fs.port(withProbeDirs);
    const rel = await PathRelator.create(port, '/res/out_run_summary.json');
    const p = new VerifierPrefetch(port, rel, '/res', null);
    fs.hold = true;
    for (const d of ['/res/v/s0', '/res/v/s1', '/res/w/s2']) p.add(d);
    const first = p.take('/res/v/s0');
    await settle();
    // In flight: nothing to hand back yet.
    assert.equal(p.takeNow('/res/v/s1'), undefined);
    fs.hold = false;
    fs.release();
    assert.deepEqual(paths(await first), held('v/s0', 'v/s0/test-stdout.txt', null, null, null));
    // v/ is located now (take located it): s1 is answered without waiting; w/ is not located yet.
    assert.deepEqual(paths(p.takeNow('/res/v/s1')), held('v/s1', null, 'v/s1/reward.txt', null, null));
    assert.equal(p.takeNow('/res/w/s2'), undefined);
    assert.deepEqual(paths(await p.take('/res/w/s2')), held('w/s2', null, 'w/s2/reward.txt', null, null));
  });

  test(`prefetch (${how}): a results folder moved as a whole, its old root known: found where the root is now`, async () => {
    const { fs, prefetch } = await setup(withProbeDirs, new MovedRoot('/old/res', '/res'));
    fs.folder('/res/v/s0', 'test-stdout.txt', 'reward.txt');
    fs.folder('/old/res/v/s2', 'trajectory.json');
    fs.folder('/res/v/s3');
    const p = prefetch();
    for (const d of ['/old/res/v/s0', '/old/res/v/s1', '/old/res/v/s2', '/old/res/v/s3', '/elsewhere/s4']) p.add(d);
    p.backpressure();
    await settle();
    assert.deepEqual(paths(await p.take('/old/res/v/s0')), held('v/s0', 'v/s0/test-stdout.txt', 'v/s0/reward.txt', null, null));
    // In neither place: missing where the moved root puts it.
    assert.deepEqual(paths(await p.take('/old/res/v/s1')), [null, null, null, null, null, ['v/s1']]);
    // Still where the row names it: taken there.
    assert.deepEqual(paths(await p.take('/old/res/v/s2')), held('../old/res/v/s2', null, null, '../old/res/v/s2/trajectory.json', null));
    // Moved and empty.
    assert.deepEqual(paths(await p.take('/old/res/v/s3')), held('v/s3', null, null, null, null));
    // Not under the old root: one candidate, not found: located after the scan.
    assert.equal(await p.take('/elsewhere/s4'), 'slow');
  });

  test(`prefetch (${how}): no run config: the rows' first 64 folders name the old root; when it is gone the rest are looked for where it is now`, async () => {
    for (const oldRootThere of [false, true]) {
      const { fs, prefetch } = await setup(withProbeDirs);
      if (oldRootThere) fs.folder('/old/res/v');
      for (let i = 0; i < 70; i++) fs.folder(`/res/v/s${i}`, 'test-stdout.txt');
      const p = prefetch();
      // The 64th folder makes the guess (it is itself probed where the row names it); the ones after it use it.
      for (let i = 0; i < 63; i++) p.add(`/old/res/v/s${i}`);
      await settle();
      p.add('/old/res/v/s63');
      await settle();
      for (let i = 64; i < 70; i++) p.add(`/old/res/v/s${i}`);
      p.backpressure();
      await settle();
      const got: (VerifierPaths | 'slow')[] = [];
      for (let i = 0; i < 70; i++) got.push(await p.take(`/old/res/v/s${i}`));
      assert.deepEqual(got.slice(0, 64), Array(64).fill('slow'));
      // The guess is made once, from the first 64.
      assert.equal(fs.stats.filter((p) => p === '/old/res').length, 1);
      assert.deepEqual(got.slice(64).map(paths), oldRootThere ? Array(6).fill('slow')
        : [64, 65, 66, 67, 68, 69].map((i) => held(`v/s${i}`, `v/s${i}/test-stdout.txt`, null, null, null)), `old root there: ${oldRootThere}`);
    }
  });
}

test('prefetch (probeDirs): batches of 256, the rest sent at the next pause; never an empty batch', async () => {
  const { fs, prefetch } = await setup(true);
  const p = prefetch();
  for (let i = 0; i < 600; i++) p.add(`/res/v/s${i}`);
  assert.deepEqual(fs.probes.map((b) => b.length), [256, 256]);
  assert.equal(p.backpressure(), undefined);
  assert.deepEqual(fs.probes.map((b) => b.length), [256, 256, 88]);
  await settle();
  p.backpressure();
  await p.take('/res/v/s599');
  assert.deepEqual(fs.probes.map((b) => b.length), [256, 256, 88]);
  // Taking a settled folder does not send the batch being filled.
  for (let i = 600; i < 605; i++) p.add(`/res/v/s${i}`);
  await p.take('/res/v/s598');
  assert.deepEqual(fs.probes.map((b) => b.length), [256, 256, 88]);
  // Each folder went to the worker once, with its one candidate, and no folder was listed on this thread.
  assert.deepEqual(probed(fs), Array.from({ length: 600 }, (_, i) => `/res/v/s${i}`));
  assert.ok(fs.probes.flat().every((c) => c.length === 1));
  assert.deepEqual(fs.readDirs, []);
});

test('prefetch (probeDirs): the scan pauses while more than 8 batches wait, and goes on when one comes back', async () => {
  const { fs, prefetch } = await setup(true);
  const p = prefetch();
  fs.hold = true;
  for (let i = 0; i < 8 * 256; i++) p.add(`/res/v/s${i}`);
  await settle();
  assert.equal(fs.probes.length, 8);
  assert.equal(p.backpressure(), undefined);
  for (let i = 8 * 256; i < 9 * 256; i++) p.add(`/res/v/s${i}`);
  const pause = p.backpressure();
  assert.ok(pause instanceof Promise);
  let resumed = false;
  void pause.then(() => { resumed = true; });
  await settle();
  assert.equal(resumed, false);
  fs.release(1);
  await settle();
  assert.equal(resumed, true);
  fs.hold = false;
  fs.release();
  await settle();
  // Every batch back: no pause.
  assert.equal(p.backpressure(), undefined);
});

test('prefetch (probeDirs): a worker that fails sends its folders to be located after the scan', async () => {
  const { fs, prefetch } = await setup(true);
  fs.folder('/res/v/s0', 'test-stdout.txt');
  fs.failProbes = true;
  const p = prefetch();
  p.add('/res/v/s0');
  assert.equal(await p.take('/res/v/s0'), 'slow');
});

test('prefetch (this thread): at most 48 listings at once; the scan pauses above 2048 waiting, until 512 wait', async () => {
  const { fs, prefetch } = await setup(false);
  const p = prefetch();
  fs.hold = true;
  for (let i = 0; i < 48 + 2048; i++) p.add(`/res/v/s${i}`);
  await settle();
  assert.equal(fs.readDirs.length, 48);
  assert.equal(p.backpressure(), undefined);
  p.add('/res/v/one-more');
  const pause = p.backpressure();
  assert.ok(pause instanceof Promise);
  let resumed = false;
  void pause.then(() => { resumed = true; });
  // 2049 wait: release one listing at a time until 512 wait.
  for (let waiting = 2049; waiting > 513; waiting--) { fs.release(1); await tick(); }
  await settle();
  assert.equal(resumed, false);
  fs.release(1);
  await settle(10);
  assert.equal(resumed, true);
  fs.hold = false;
  fs.release();
  await settle(20);
});

test('prefetch (this thread): a listing that fails sends its folder to be located after the scan', async () => {
  const { fs, port, rel } = await setup(false);
  fs.folder('/res/v/s0', 'test-stdout.txt');
  const failing = Object.assign(Object.create(null), port, { readDir: async () => { throw new Error('EIO'); } }) as FsPort;
  const p = new VerifierPrefetch(failing, rel, '/res', null);
  p.add('/res/v/s0');
  assert.equal(await p.take('/res/v/s0'), 'slow');
});

for (const withProbeDirs of [true, false]) {
  const how = withProbeDirs ? 'probeDirs' : 'this thread';
  test(`resolveMissing (${how}): .. applied after the links, relative to the results folder; empty, a file, gone, moved`, async () => {
    const { fs, port, rel } = await setup(withProbeDirs);
    fs.folder('/res/v/s0');
    fs.folder('/res/v/s1', 'test-stdout.txt', 'reward.json');
    fs.folder('/deep/real/s2', 'reward.txt');
    fs.folder('/deep/real/x');
    fs.folder('/deep/real', 'test-stdout.txt');
    fs.links.set('/res/link', '/deep/real/x');
    fs.folder('/res/file-parent');
    fs.files.add('/res/file-parent/s3');
    fs.folder('/res/s5', 'trajectory.json');
    const root = new MovedRoot('/old', '/res');
    const got = await resolveMissing(port, rel, root, ['/res/v/x/../s0', 'v/y/../s1', '/res/link/../s2', '/res/file-parent/s3',
      '/gone/x/../s4', '/old/x/../s5', '/old/s6', '/res/v/s1/', '/res/link/..', '/res/link/.', '/res/link/../s2//',
      '/res/link/./']);
    assert.deepEqual(got.map(paths), [
      held('v/s0', null, null, null, null),
      held('v/s1', 'v/s1/test-stdout.txt', 'v/s1/reward.json', null, null),
      held('../deep/real/s2', null, '../deep/real/s2/reward.txt', null, null),
      [null, null, null, null, null, ['file-parent/s3']],
      [null, null, null, null, null, ['../gone/s4']],
      held('s5', null, null, 's5/trajectory.json', null),
      [null, null, null, null, null, ['s6']],
      held('v/s1', 'v/s1/test-stdout.txt', 'v/s1/reward.json', null, null),
      // The link's folder's parent, not the text collapsed (`/res`); a last `.` is the link itself, named as the link.
      held('../deep/real', '../deep/real/test-stdout.txt', null, null, null),
      held('link', null, null, null, null),
      held('../deep/real/s2', null, '../deep/real/s2/reward.txt', null, null),
      // A slash after the last `.` changes nothing: still the link itself.
      held('link', null, null, null, null),
    ]);
    assert.deepEqual(await resolveMissing(port, rel, root, []), []);
  });
}

test('resolveMissing: probeDirs in chunks of 4096; a failing worker falls back to listing on this thread', async () => {
  const { fs, port, rel } = await setup(true);
  const dirs = Array.from({ length: 5000 }, (_, i) => `/res/v/x/../s${i}`);
  for (let i = 0; i < 5000; i += 1000) fs.folder(`/res/v/s${i}`, 'reward.txt');
  const root = new MovedRoot(null, '/res');
  const want = dirs.map((_, i) => (i % 1000 === 0 ? held(`v/s${i}`, null, `v/s${i}/reward.txt`, null, null) : [null, null, null, null, null, [`v/s${i}`]]));
  assert.deepEqual((await resolveMissing(port, rel, root, dirs)).map(paths), want);
  assert.deepEqual(fs.probes.map((b) => b.length), [4096, 904]);
  assert.deepEqual(fs.readDirs, []);
  fs.failProbes = true;
  assert.deepEqual((await resolveMissing(port, rel, root, dirs.slice(0, 1001))).map(paths), want.slice(0, 1001));
  assert.equal(new Set(fs.readDirs).size, 1001);
  // Exactly one chunk: one call.
  fs.failProbes = false;
  fs.probes.length = 0;
  await resolveMissing(port, rel, root, dirs.slice(0, 4096));
  assert.deepEqual(fs.probes.map((b) => b.length), [4096]);
});

test('resolveMissing: a cancelled scan stops with the signal\'s reason', async () => {
  const { port, rel } = await setup(true);
  const ac = new AbortController();
  const reason = new Error('stop now');
  ac.abort(reason);
  await assert.rejects(resolveMissing(port, rel, new MovedRoot(null, '/res'), ['/res/a/../b'], ac.signal), (e) => e === reason);
});

test('resolveMissing: a folder that is the summary\'s own folder, or a drive root, names its files without a doubled slash', async () => {
  const fs = new MemFs().folder('/res', 'test-stdout.txt');
  fs.folders.set('D:/', [['reward.txt', 'file']]);
  const port = fs.port(false);
  // A relator that answers as rule 6 does for these two: the summary's own folder is `.`, another drive stays absolute.
  const rel = { rel: async (p: string) => (p === '/res' ? '.' : p), relSync: () => undefined } as unknown as PathRelator;
  const got = await resolveMissing(port, rel, new MovedRoot(null, '/res'), ['/res/v/..', 'D:/x/..']);
  assert.deepEqual(got.map(paths), [held('.', 'test-stdout.txt', null, null, null), held('D:/', null, 'D:/reward.txt', null, null)]);
});

test('MovedRoot.locate: the path as written when something is there, else where the moved root puts it, else as written', async () => {
  const fs = new MemFs().folder('/res/data').folder('/old/res/keep');
  fs.files.add('/res/data/rows.jsonl');
  const port = fs.port(false);
  const root = new MovedRoot('/old/res', '/res');
  assert.equal(await root.locate(port, '/old/res/keep'), '/old/res/keep');
  assert.equal(await root.locate(port, '/old/res/data/rows.jsonl'), '/res/data/rows.jsonl');
  assert.equal(await root.locate(port, '/old/res/gone.jsonl'), '/res/gone.jsonl');
  assert.equal(await root.locate(port, '/other/gone.jsonl'), '/other/gone.jsonl');
  assert.equal(await root.locate(port, 'data/rows.jsonl'), '/res/data/rows.jsonl');
  assert.equal(await root.locate(port, '/old/res/x/../data/rows.jsonl'), '/res/data/rows.jsonl');
});

test('Pool: a second wait for a low backlog does not drop the first: both are answered', async () => {
  const pool = new Pool(1);
  const gates: (() => void)[] = [];
  for (let i = 0; i < 4; i++) void pool.run(() => new Promise<void>((r) => gates.push(r)));
  const woke: string[] = [];
  void pool.whenBacklogAtMost(2)!.then(() => woke.push('at most 2'));
  void pool.whenBacklogAtMost(1)!.then(() => woke.push('at most 1'));
  gates.shift()!();
  await settle();
  assert.deepEqual(woke, []);
  gates.shift()!();
  await settle();
  assert.deepEqual(woke.sort(), ['at most 1', 'at most 2']);
  while (gates.length) { gates.shift()!(); await settle(); }
});
