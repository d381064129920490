// groupLines (a row worker's read of its groups of a file, a piece at a time) against forEachLine + pickLine on one
// thread: for random files of every kind of line, every group size, piece size and line limit, the groups read one
// after the other give the same outcome for every line, with the same number, the same long lines, the same cut-off
// tail; and a region of plain memory gives what the skipper's memory gives.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { forEachLine } from '../../../src/core/summary/lines';
import { pickLine, RESULT_KEYS, type LineOutcome } from '../../../src/core/summary/lineOutcome';
import { groupLines, plainRegion, type ReadAt, type Region } from '../../../src/core/summary/groupLines';
import { FastSkip } from '../../../src/core/summary/skipWasm';
import { fastSkip, setFastSkip } from '../../../src/core/summary/scan';
import { randomFile, rng } from './builders';
import { posix, tmpDir } from './helpers';

type Seen = [LineOutcome | 'long', number, boolean | number][];

function port(maxLine: number): FsPort {
  return Object.assign(Object.create(new NodeFs()) as FsPort, { maxFileBytes: maxLine });
}

async function onThisThread(file: string, chunk: number, maxLine: number): Promise<Seen> {
  const seen: Seen = [];
  await forEachLine(port(maxLine), file, (buf, start, end, line, terminated) => {
    const o = pickLine(RESULT_KEYS, buf, start, end, line === 1, terminated);
    if (o) seen.push([o, line, terminated]);
  }, chunk, undefined, (line, bytes) => seen.push(['long', line, bytes]));
  return seen;
}

/** Every group of the file in order, as parallelFileRows.ts puts their answers together. */
function byGroups(file: string, size: number, maxLine: number, region: Region, piece: number, reads?: number[]): Seen {
  const fd = fs.openSync(file, 'r');
  const read: ReadAt = (b, off, len, pos) => { reads?.push(len); return fs.readSync(fd, b, off, len, pos); };
  const seen: Seen = [];
  try {
    let line = 0;
    for (let k = 0; ; k++) {
      const g = groupLines(read, k, size, maxLine, region, piece);
      let oi = 0, li = 0;
      while (oi < g.outcomes.length || li < g.longs.length) {
        if (li < g.longs.length && (oi >= g.outcomes.length || g.longs[li][0] < g.outcomes[oi][0])) {
          seen.push(['long', line + g.longs[li][0] + 1, g.longs[li][1]]);
          li++;
        } else {
          const [at, o] = g.outcomes[oi++];
          seen.push([o, line + at + 1, at !== g.cut]);
        }
      }
      line += g.lines;
      if (g.last) return seen;
      assert.ok(k < 100_000, 'the groups end');
    }
  } finally {
    fs.closeSync(fd);
  }
}

test('groupLines: the same lines as forEachLine, for random files, every group and piece size, with and without a line limit', async () => {
  const dir = tmpDir('group-lines');
  const r = rng(41);
  let compared = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const file = posix(path.join(dir, `f${seed}.jsonl`));
    fs.writeFileSync(file, randomFile(seed));
    const size = fs.statSync(file).size;
    for (const group of [5, 64, 333, 1024, size, size + 5]) {
      for (const maxLine of [1 << 20, 50 + Math.floor(r() * 400)]) {
        const want = await onThisThread(file, group, maxLine);
        // (Pieces of one byte only in the larger groups: groups of a few bytes already cut every line.)
        for (const piece of group < 64 ? [3, 256] : [1, 3, 17, 256, 1 << 18]) {
          assert.deepEqual(byGroups(file, group, maxLine, plainRegion(), piece), want, `seed ${seed}, group ${group}, piece ${piece}, limit ${maxLine}`);
          compared++;
        }
      }
    }
  }
  assert.equal(compared, 24 * 2 * (1 * 2 + 5 * 5));
});

test('groupLines: into the skipper\'s memory (strings skipped there) the same lines as into plain memory', async () => {
  const f = FastSkip.create();
  assert.ok(f);
  const before = fastSkip();
  const dir = tmpDir('group-lines-fast');
  try {
    setFastSkip(f);
    for (let seed = 50; seed < 60; seed++) {
      const file = posix(path.join(dir, `f${seed}.jsonl`));
      fs.writeFileSync(file, randomFile(seed));
      for (const group of [64, 4096]) {
        for (const piece of [5, 300, 1 << 18]) {
          setFastSkip(undefined);
          const want = byGroups(file, group, 1 << 20, plainRegion(), piece);
          setFastSkip(f);
          assert.deepEqual(byGroups(file, group, 1 << 20, f, piece), want, `seed ${seed} group ${group} piece ${piece}`);
        }
      }
    }
  } finally {
    setFastSkip(before);
  }
});

test('groupLines: a group is read in pieces of the size given, and a line running on past it reads only up to its newline', () => {
  const dir = tmpDir('group-lines-reads');
  const file = posix(path.join(dir, 'f.jsonl'));
  const row = `{"_ng_task_id": "t", "_ng_rollout_index": 0, "text": "${'y'.repeat(90)}"}\n`;
  fs.writeFileSync(file, row.repeat(1000));
  const reads: number[] = [];
  const fd = fs.openSync(file, 'r');
  try {
    const g = groupLines((b, off, len, pos) => { reads.push(len); return fs.readSync(fd, b, off, len, pos); }, 3, 10_000, 1 << 20, plainRegion(), 1_000);
    // The byte before the group and 1,000 of it, then 999-byte pieces to its end; then 1,000 bytes of the next group.
    assert.equal(reads[0], 1_001);
    assert.ok(reads.slice(1, -1).every((n) => n <= 1_000), JSON.stringify(reads));
    assert.equal(reads.slice(0, -1).reduce((a, b) => a + b, 0), 10_001);
    assert.equal(reads[reads.length - 1], 1_000);
    assert.equal(g.lines, Math.round(10_000 / row.length));
    assert.ok(g.outcomes.every(([, o]) => o.row?._ng_task_id === 't'));
  } finally {
    fs.closeSync(fd);
  }
});
