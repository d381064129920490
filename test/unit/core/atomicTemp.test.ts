// The temp-file naming of atomic writes lives on the fs port: the name every FsPort writes, the pattern the summary
// writer finds dead writers' files by, and the test the run store ignores them with, agree.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { atomicTempPath, atomicTempPattern, isAtomicTempPath } from '../../../src/core/fs/port';
import { NodeFs } from '../../../src/core/fs/nodeFs';

test('a temp path sits beside its target, is matched by its pattern (pid captured) and recognised as a temp', () => {
  const target = '/runs/a.b/rollouts_run_summary.json';
  const tmp = atomicTempPath(target, 4242, '0a1b2c');
  assert.equal(tmp, '/runs/a.b/.rollouts_run_summary.json.4242.0a1b2c.tmp');
  const m = atomicTempPattern(target).exec(path.posix.basename(tmp));
  assert.equal(m?.[1], '4242');
  assert.equal(isAtomicTempPath(tmp), true);
  assert.equal(atomicTempPattern('/runs/other.json').test(path.posix.basename(tmp)), false, 'another target\'s pattern does not match');
  assert.equal(atomicTempPattern('/runs/aXb_run_summary.json').test('.a.b_run_summary.json.1.ff.tmp'), false, 'dots in the name are literal');
  for (const p of ['/runs/rollouts.jsonl', '/runs/.hidden.tmp', '/runs/x.json.tmp', '/runs/.x.json.12.zz.tmp']) assert.equal(isAtomicTempPath(p), false, p);
});

test('NodeFs.writeFileAtomic leaves no file matching the pattern, and a failed write removes its temp', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-temp-'));
  try {
    const target = path.join(dir, 'out.json').split(path.sep).join('/');
    await new NodeFs().writeFileAtomic(target, new TextEncoder().encode('{}'));
    assert.deepEqual(fs.readdirSync(dir), ['out.json']);
    fs.mkdirSync(path.join(dir, 'blocked.json'));
    await assert.rejects(new NodeFs().writeFileAtomic(`${dir.split(path.sep).join('/')}/blocked.json`, new Uint8Array(1)));
    assert.deepEqual(fs.readdirSync(dir).filter((n) => atomicTempPattern(`${dir}/blocked.json`).test(n)), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
