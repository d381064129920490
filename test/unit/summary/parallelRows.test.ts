// The row workers (parallelRows.ts) give what this thread gives: the same outcome for every line, with the same
// line number, in file order, the same long lines dropped, the same cut-off tail; and the writer's rows, problems
// and document are the same read either way.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { forEachLine } from '../../../src/core/summary/lines';
import { pickLine, RESULT_KEYS, type LineOutcome } from '../../../src/core/summary/lineOutcome';
import { defaultRowWorkers, forEachPickedLine, rowWorkerFile, rowWorkersRunning } from '../../../src/core/summary/parallelRows';
import { buildRunSummary, serializeSummary } from '../../../src/core/summary';
import { generateNemoRun, nemoEveryCase } from '../../../scripts/sample-runs/nemoGym';
import { posix, tmpDir } from './helpers';
import { countingReads, randomFile, rowsOf48Bytes } from './builders';

// Outcomes compared as objects (deepEqual tells Infinity from null: a reward of 1e400 must reach the writer's
// thread as Infinity, not as the null JSON would write).
type Seen = [LineOutcome | 'long', number, boolean | number][];

async function onThisThread(fsPort: FsPort, file: string, chunk: number): Promise<Seen> {
  const seen: Seen = [];
  await forEachLine(fsPort, file, (buf, start, end, line, terminated) => {
    const o = pickLine(RESULT_KEYS, buf, start, end, line === 1, terminated);
    if (o) seen.push([o, line, terminated]);
  }, chunk, undefined, (line, bytes) => seen.push(['long', line, bytes]));
  return seen;
}

async function onWorkers(fsPort: FsPort, file: string, chunk: number, workers: number, workerFile?: string,
  readsItself?: boolean): Promise<Seen> {
  const seen: Seen = [];
  const ran = await forEachPickedLine(fsPort, file, {
    onOutcome: (o: LineOutcome, line, terminated) => seen.push([o, line, terminated]),
    onLongLine: (line, bytes) => seen.push(['long', line, bytes]),
  }, workers, chunk, workerFile, readsItself);
  assert.ok(ran, 'the row workers ran');
  return seen;
}

/** A port that hands the file over in one piece (no openSequential): the reader cuts it into the chunks asked for. */
function wholeFilePort(maxFileBytes: number): FsPort {
  return {
    maxFileBytes,
    async *readChunks(p: string) { yield new Uint8Array(fs.readFileSync(p)); },
  } as unknown as FsPort;
}

test('row workers: the bundle is found beside the tests\' bundles', () => {
  assert.ok(rowWorkerFile(), 'out/summaryRowWorker.js');
});

// The focused cases first, the two broad ones (many files, every chunk size; the whole writer) last: a mutation run
// stops at the first failing test.
test('row workers by default: one per core but this thread\'s, at least 1, at most 3 (os.cpus() where availableParallelism is missing)', () => {
  // The module object itself (the bundle's `import * as os` reads through to it).
  const o = require('node:os') as { availableParallelism?: () => number; cpus: () => os.CpuInfo[] };
  const { availableParallelism, cpus } = o;
  try {
    const got = [1, 2, 3, 4, 8].map((n) => { o.availableParallelism = () => n; return defaultRowWorkers(); });
    assert.deepEqual(got, [1, 1, 2, 3, 3]);
    o.availableParallelism = undefined;
    o.cpus = () => Array.from({ length: 3 }, () => cpus()[0]);
    assert.equal(defaultRowWorkers(), 2);
  } finally {
    o.availableParallelism = availableParallelism;
    o.cpus = cpus;
  }
});

test('row workers handed chunks that fail: one that answers "failed" is picked on this thread, the same; one that throws or exits is an error, never a hang; none that starts: false, nothing read', async () => {
  const dir = tmpDir('rows-parallel-failing');
  const file = posix(path.join(dir, 'f.jsonl'));
  fs.writeFileSync(file, randomFile(5));
  const node = new NodeFs();
  const want = await onThisThread(node, file, 64);
  const script = (name: string, text: string) => { const p = path.join(dir, name); fs.writeFileSync(p, text); return p; };
  const failing = script('failing.js', "const { parentPort } = require('node:worker_threads');\n"
    + "parentPort.on('message', (j) => parentPort.postMessage({ id: j.id, bytes: j.bytes, lines: 0, outcomes: [], failed: 'no' }, [j.bytes.buffer]));\n");
  for (const workers of [1, 3]) assert.deepEqual(await onWorkers(node, file, 64, workers, failing, false), want, `${workers} workers`);
  await assert.rejects(onWorkers(node, file, 64, 2, script('throws.js', 'throw new Error("no rows here");\n'), false), /no rows here/);
  await assert.rejects(onWorkers(node, file, 64, 2, script('exits.js', 'process.exit(3);\n'), false), /a row worker exited/);
  // A worker that has died before its first job (the file is slow to come): that job fails too.
  const slow = { maxFileBytes: 1 << 20, async *readChunks(p: string) { await new Promise((r) => setTimeout(r, 300)); yield new Uint8Array(fs.readFileSync(p)); } } as unknown as FsPort;
  await assert.rejects(onWorkers(slow, file, 64, 1, script('exits2.js', 'process.exit(4);\n')), /a row worker exited/);
  // No worker can start: false, and nothing read (the caller reads on its own thread).
  for (const workerFile of ['', 'not-a-path.js']) {
    let called = 0;
    assert.equal(await forEachPickedLine(node, file, { onOutcome: () => { called++; } }, 2, 64, workerFile), false);
    assert.equal(called, 0);
  }
  assert.equal(await forEachPickedLine(node, file, { onOutcome: () => undefined }, 0, 64), false, 'no workers asked for');
});

test('row workers: none is left running once a read is over, however it ended (read whole, cancelled, a worker that failed)', async () => {
  const dir = tmpDir('rows-parallel-running');
  const file = posix(path.join(dir, 'f.jsonl'));
  fs.writeFileSync(file, randomFile(7));
  const node = new NodeFs();
  const before = rowWorkersRunning();
  await onWorkers(node, file, 64, 3);
  assert.equal(rowWorkersRunning(), before, 'after a whole read');
  const ac = new AbortController();
  ac.abort(new Error('stop'));
  await assert.rejects(forEachPickedLine(node, file, { onOutcome: () => undefined, signal: ac.signal }, 2, 64), /stop/);
  assert.equal(rowWorkersRunning(), before, 'after a cancelled read');
  const throws = path.join(dir, 'throws.js');
  fs.writeFileSync(throws, 'throw new Error("no rows here");\n');
  await assert.rejects(onWorkers(node, file, 64, 2, throws), /no rows here/);
  assert.equal(rowWorkersRunning(), before, 'after a failed read');
});

test('row workers: a worker that dies holding a job fails the read, never a hang', async () => {
  const dir = tmpDir('rows-parallel-dies');
  const file = posix(path.join(dir, 'f.jsonl'));
  fs.writeFileSync(file, randomFile(9));
  const dies = path.join(dir, 'dies.js');
  // Takes its first job, then exits without answering it.
  fs.writeFileSync(dies, "require('node:worker_threads').parentPort.on('message', () => process.exit(5));\n");
  await assert.rejects(onWorkers(new NodeFs(), file, 64, 1, dies), /a row worker exited/);
});

test('row workers: one of two workers dead from the start fails the read, whichever of the two it is', async () => {
  const dir = tmpDir('rows-parallel-one-dead');
  const file = posix(path.join(dir, 'f.jsonl'));
  fs.writeFileSync(file, randomFile(13));
  for (const parity of [0, 1]) {
    // Worker threads get consecutive ids: of the pool's two, one exits at once and the other is the real row worker.
    const script = path.join(dir, `half${parity}.js`);
    fs.writeFileSync(script, `if (require('node:worker_threads').threadId % 2 === ${parity}) process.exit(3);\nrequire(${JSON.stringify(rowWorkerFile())});\n`);
    await assert.rejects(onWorkers(new NodeFs(), file, 64, 2, script), /a row worker exited/, `parity ${parity}`);
  }
});

test('row workers: a worker that exits once it has answered all it was given fails nothing: the other\'s job still counts', async () => {
  const dir = tmpDir('rows-parallel-exits-after');
  const file = posix(path.join(dir, 'f.jsonl'));
  // Two chunks of whole lines: one job for each of the two workers.
  fs.writeFileSync(file, rowsOf48Bytes(4));
  const node = new NodeFs();
  const want = await onThisThread(node, file, 96);
  for (const parity of [0, 1]) {
    // One worker answers its job and then exits; the other answers its own 300 ms later.
    const script = path.join(dir, `exits-after${parity}.js`);
    fs.writeFileSync(script, `const { threadId, parentPort } = require('node:worker_threads');
const quick = threadId % 2 === ${parity};
const real = parentPort.on.bind(parentPort);
parentPort.on = (ev, f) => real(ev, ev !== 'message' ? f : (job) => {
  if (quick) { f(job); setTimeout(() => process.exit(0), 50); } else setTimeout(() => f(job), 300);
});
require(${JSON.stringify(rowWorkerFile())});
`);
    assert.deepEqual(await onWorkers(node, file, 96, 2, script), want, `parity ${parity}`);
  }
});

test('row workers: the read runs at most two chunks per worker, and one, ahead of the lines applied', async () => {
  const dir = tmpDir('rows-parallel-ahead');
  const file = posix(path.join(dir, 'f.jsonl'));
  // A chunk of 96 holds two whole lines, so each chunk read is one job.
  fs.writeFileSync(file, rowsOf48Bytes(40));
  for (const workers of [1, 2]) {
    const { port, reads } = countingReads();
    const atFirst: number[] = [];
    await forEachPickedLine(port, file, { onOutcome: () => { if (!atFirst.length) atFirst.push(reads()); } }, workers, 96);
    assert.deepEqual(atFirst, [2 * workers + 1], `${workers} workers: chunks read when the first line is applied`);
    assert.equal(reads(), 20);
  }
});

test('row workers: the file is closed once read or when the read fails, read sequentially or in the port\'s own chunks (an iterator without return() too)', async () => {
  const dir = tmpDir('rows-parallel-close');
  const file = posix(path.join(dir, 'f.jsonl'));
  fs.writeFileSync(file, randomFile(11));
  const node = new NodeFs();
  const want = await onThisThread(node, file, 64);
  let opened = 0;
  let closed = 0;
  const sequential = Object.assign(Object.create(node) as FsPort, {
    openSequential: async (p: string) => {
      const r = await node.openSequential!(p);
      opened++;
      return { read: (b: Uint8Array) => r.read(b), close: async () => { closed++; await r.close(); } };
    },
  });
  assert.deepEqual(await onWorkers(sequential, file, 64, 1), want);
  assert.deepEqual([opened, closed], [1, 1], 'sequential reader closed once');
  await assert.rejects(forEachPickedLine(sequential, file, { onOutcome: () => { throw new Error('handler failed'); } }, 1, 64), /handler failed/);
  assert.deepEqual([opened, closed], [2, 2], 'closed when the read failed');
  // The port's own chunks: its iterator is returned (a generator's finally runs), also when there is no return().
  let finished = 0;
  const chunks = { maxFileBytes: 1 << 20, async *readChunks(p: string) { try { yield new Uint8Array(fs.readFileSync(p)); } finally { finished++; } } } as unknown as FsPort;
  await assert.rejects(forEachPickedLine(chunks, file, { onOutcome: () => { throw new Error('handler failed'); } }, 1, 64), /handler failed/);
  assert.equal(finished, 1, 'the chunks\' generator finished');
  const bare = {
    maxFileBytes: 1 << 20,
    readChunks: (p: string) => ({ [Symbol.asyncIterator]: () => {
      let done = false;
      return { next: async () => (done ? { done: true, value: undefined } : (done = true, { done: false, value: new Uint8Array(fs.readFileSync(p)) })) };
    } }),
  } as unknown as FsPort;
  assert.deepEqual(await onWorkers(bare, file, 64, 1), want);
});

test('row workers: the last line without a newline: a lone line after a BOM is the first line; a blank one is no line; a long one with no listener is left out quietly', async () => {
  const dir = tmpDir('rows-parallel-tail');
  const node = new NodeFs({ maxFileBytes: 300 });
  const row = JSON.stringify({ _ng_task_id: 't1', _ng_rollout_index: 0, reward: 1, verifier_logs_dir: '/v/1' });
  const cases: [string, Buffer][] = [
    ['bom-lone', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(row)])],
    ['blank-tail', Buffer.from(`${row}\n   \t`)],
    ['long-tail', Buffer.from(`${row}\n${'x'.repeat(400)}`)],
    ['long-middle', Buffer.from(`${row}\n${'y'.repeat(400)}\n${row}\n`)],
    ['cr-tail', Buffer.from(`${row}\n${row}\r`)],
    ['cr-lone', Buffer.from(`${row}\r`)],
  ];
  for (const [name, bytes] of cases) {
    const file = posix(path.join(dir, `${name}.jsonl`));
    fs.writeFileSync(file, bytes);
    for (const chunk of [16, 4096]) {
      assert.deepEqual(await onWorkers(node, file, chunk, 1), await onThisThread(node, file, chunk), `${name}, chunk ${chunk}`);
      // Without a listener for long lines: the other lines as before, no error.
      const seen: number[] = [];
      await forEachPickedLine(node, file, { onOutcome: (_o, line) => seen.push(line) }, 1, chunk);
      assert.deepEqual(seen, (await onThisThread(node, file, chunk)).filter(([o]) => o !== 'long').map(([, line]) => line), `${name}, chunk ${chunk}, no listener`);
    }
  }
  const lone = await onWorkers(node, posix(path.join(dir, 'bom-lone.jsonl')), 4096, 1);
  assert.equal(lone.length, 1);
  assert.notEqual(lone[0][0], 'long');
  assert.equal((lone[0][0] as LineOutcome).row?.reward, 1, 'the BOM is not part of the row');
});

test('row workers: a line that starts with a BOM in the middle of the file is read as this thread reads it, after a line carried across chunks or a line too long', async () => {
  const dir = tmpDir('rows-parallel-bom-middle');
  const node = new NodeFs({ maxFileBytes: 300 });
  const row = (i: number) => JSON.stringify({ _ng_task_id: `t${i}`, _ng_rollout_index: 0, reward: i, verifier_logs_dir: `/v/${i}` });
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const file = posix(path.join(dir, 'f.jsonl'));
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`${row(1)}\n${'z'.repeat(400)}\n`), bom, Buffer.from(`${row(2)}\n${row(3)}\n`), bom, Buffer.from(`${row(4)}\n`)]));
  for (const chunk of [8, 50, 100, 4096]) assert.deepEqual(await onWorkers(node, file, chunk, 1), await onThisThread(node, file, chunk), `chunk ${chunk}`);
});

test('row workers: a cancelled read throws the signal\'s reason and applies no line', async () => {
  const dir = tmpDir('rows-parallel-cancel');
  const file = posix(path.join(dir, 'f.jsonl'));
  fs.writeFileSync(file, randomFile(2));
  const ac = new AbortController();
  ac.abort(new Error('stop here'));
  let applied = 0;
  await assert.rejects(forEachPickedLine(new NodeFs(), file, { onOutcome: () => { applied++; }, signal: ac.signal }, 1, 64), /stop here/);
  assert.equal(applied, 0);
  const bare = new AbortController();
  bare.abort();
  Object.defineProperty(bare.signal, 'reason', { value: undefined });
  await assert.rejects(forEachPickedLine(new NodeFs(), file, { onOutcome: () => { applied++; }, signal: bare.signal }, 1, 64), /cancelled/);
  assert.equal(applied, 0);
});

test('row workers: the bytes of the whole lines are counted (progress), each chunk\'s lines applied before the next chunk waits on afterChunk', async () => {
  const dir = tmpDir('rows-parallel-bytes');
  const file = posix(path.join(dir, 'f.jsonl'));
  const text = randomFile(11);
  fs.writeFileSync(file, text);
  const ends = text[text.length - 1] === 10;
  const tail = ends ? 0 : text.length - text.lastIndexOf(10) - 1;
  let bytes = 0;
  let waiting = false;
  let waits = 0;
  let outcomes = 0;
  const ran = await forEachPickedLine(new NodeFs(), file, {
    onOutcome: () => { assert.equal(waiting, false, 'no line applied while afterChunk is pending'); outcomes++; },
    onBytes: (n) => { bytes += n; },
    afterChunk: () => {
      waits++;
      waiting = true;
      return new Promise<void>((resolve) => setTimeout(() => { waiting = false; resolve(); }, 5));
    },
  }, 2, 256);
  assert.ok(ran);
  // Progress: the bytes of the whole lines (the cut-off tail is not counted), less at most the newline of each line
  // joined across two chunks (one a chunk).
  assert.ok(bytes <= text.length - tail && bytes >= text.length - tail - Math.ceil(text.length / 256), `${bytes} of ${text.length - tail}`);
  assert.ok(waits > 3 && outcomes > 3);
});

test('row workers: a port without sequential reads (its own chunks, cut to the size asked) gives the same lines', async () => {
  const dir = tmpDir('rows-parallel-chunks');
  for (const seed of [3, 4, 7]) {
    const file = posix(path.join(dir, `f${seed}.jsonl`));
    fs.writeFileSync(file, randomFile(seed));
    const max = seed % 3 === 0 ? 350 : 1 << 20;
    const node = new NodeFs({ maxFileBytes: max });
    for (const chunk of [7, 333]) {
      assert.deepEqual(await onWorkers(wholeFilePort(max), file, chunk, 2), await onThisThread(node, file, chunk), `seed ${seed}, chunk ${chunk}`);
    }
  }
});

test('row workers pick every line as this thread does, whatever the chunk size (lines across chunks, long lines, cut-off tail)', async () => {
  const dir = tmpDir('rows-parallel');
  let infinite = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const file = path.join(dir, `f${seed}.jsonl`);
    fs.writeFileSync(file, randomFile(seed));
    // A line limit below some rows' length: those are dropped as too long, the same way on both sides.
    const fsPort = new NodeFs({ maxFileBytes: seed % 3 === 0 ? 350 : 1 << 20 });
    for (const chunk of [7, 64, 333, 4096]) {
      const want = await onThisThread(fsPort, posix(file), chunk);
      if (chunk === 4096 && want.some(([o]) => o !== 'long' && o.row?.reward === Infinity)) infinite++;
      assert.deepEqual(await onWorkers(fsPort, posix(file), chunk, 1 + (seed % 3)), want, `seed ${seed}, chunk ${chunk}`);
    }
  }
  assert.ok(infinite > 0, 'some files hold a reward of 1e400 (Infinity)');
});

test('row workers: the writer\'s document and problems are the same read on workers or on this thread', async () => {
  const dir = tmpDir('rows-parallel-run');
  const run = await generateNemoRun(dir, nemoEveryCase());
  // The rollouts with a broken row, a duplicate, a blank line and a cut-off tail appended.
  const rollouts = run.rolloutsPath;
  const lines = fs.readFileSync(rollouts, 'utf8').split('\n').filter(Boolean);
  fs.appendFileSync(rollouts, `\n{"broken": \n${lines[0]}\n${lines[1].slice(0, 60)}`);
  const node = new NodeFs();
  const here = await buildRunSummary(node, posix(rollouts), { beforeDispatch: null, rowWorkers: 0 });
  for (const rowWorkers of [1, 3]) {
    const there = await buildRunSummary(node, posix(rollouts), { beforeDispatch: null, rowWorkers });
    assert.equal(serializeSummary(there.document), serializeSummary(here.document), `${rowWorkers} workers`);
    assert.deepEqual(there.problems, here.problems, `${rowWorkers} workers`);
  }
  assert.ok(here.problems.some((p) => p.code === 'incomplete-tail') && here.problems.some((p) => p.code === 'duplicate-row')
    && here.problems.some((p) => p.code === 'parse-error'), 'the appended lines are said');
});
