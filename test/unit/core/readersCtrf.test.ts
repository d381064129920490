// ctrf.json (the Common Test Report Format) as an attempt's evidence (src/core/readers/ctrf.ts): which tests count as
// failed, what is said of each, how many are kept, and a file that cannot be read or parsed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { ctrfFailedTests, readCtrfFailedTests } from '../../../src/core/readers/ctrf';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-ctrf-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

test('failed, error, errored and broken (any case) are failures; passed, skipped, pending and odd entries are not', () => {
  const doc = {
    results: {
      tests: [
        { name: 'a', status: 'passed' },
        { name: 'b', status: 'failed', message: 'assert 1 == 2' },
        { name: 'c', status: 'ERROR', trace: 'Traceback: c' },
        { name: 'd', status: 'Errored', message: 'm', trace: 't' },
        { name: 'e', status: 'broken' },
        { name: 'f', status: 'skipped', message: 'not run' },
        { name: 'g', status: 'pending' },
        { name: 'h', status: 7 },
        { name: 'i' },
        null,
        'failed',
        { status: 'failed', message: '' },
        { name: 5, status: 'failed', message: 42, trace: ['x'] },
      ],
    },
  };
  assert.deepEqual(ctrfFailedTests(doc), [
    { name: 'b', message: 'assert 1 == 2' },
    { name: 'c', message: 'Traceback: c' },
    { name: 'd', message: 'm' },
    { name: 'e' },
    { name: '(unnamed test)' },
    { name: '(unnamed test)' },
  ]);
});

test('not a ctrf report: no failed tests', () => {
  for (const doc of [null, undefined, 7, 'x', [], {}, { results: null }, { results: {} }, { results: { tests: 'all' } },
    { results: { tests: { name: 'a', status: 'failed' } } }, { tests: [{ name: 'a', status: 'failed' }] }]) {
    assert.deepEqual(ctrfFailedTests(doc), [], JSON.stringify(doc));
  }
});

test('at most `max` failures (50 unless told), a message cut at 2,000 characters', () => {
  const tests = Array.from({ length: 60 }, (_, i) => ({ name: `t${i}`, status: 'failed' }));
  assert.equal(ctrfFailedTests({ results: { tests } }).length, 50);
  assert.deepEqual(ctrfFailedTests({ results: { tests } }, 3).map((t) => t.name), ['t0', 't1', 't2']);
  assert.deepEqual(ctrfFailedTests({ results: { tests: [{ name: 'p', status: 'passed' }, ...tests] } }, 1).map((t) => t.name), ['t0']);
  const long = 'x'.repeat(2500);
  const [cut] = ctrfFailedTests({ results: { tests: [{ name: 'l', status: 'failed', message: long }] } });
  assert.equal(cut.message, 'x'.repeat(2000));
  const [exact] = ctrfFailedTests({ results: { tests: [{ name: 'l', status: 'failed', trace: 'y'.repeat(2000) }] } });
  assert.equal(exact.message?.length, 2000);
});

test('readCtrfFailedTests: a file read and parsed; undefined when it is not JSON or not there', async () => {
  const node = new NodeFs();
  const good = path.join(tmpRoot, 'ctrf.json');
  fs.writeFileSync(good, JSON.stringify({ results: { tests: [{ name: 'x', status: 'failed', message: 'é' }, { name: 'y', status: 'passed' }] } }));
  assert.deepEqual(await readCtrfFailedTests(node, good), [{ name: 'x', message: 'é' }]);
  const bad = path.join(tmpRoot, 'bad.json');
  fs.writeFileSync(bad, '{"results": ');
  assert.equal(await readCtrfFailedTests(node, bad), undefined);
  assert.equal(await readCtrfFailedTests(node, path.join(tmpRoot, 'none.json')), undefined);
  const deep = path.join(tmpRoot, 'deep.json');
  fs.writeFileSync(deep, '['.repeat(5000) + ']'.repeat(5000));
  assert.equal(await readCtrfFailedTests(node, deep), undefined, 'nested past the bound: not parsed');
});
