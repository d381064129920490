// guardMessage: every webview panel's handler of a page's message runs under it (src/vscode/panels/panelHost.ts).
// A handler that throws or rejects is reported once and never becomes an unhandled rejection; the page's protocols
// all accept the `failed` message the host then sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardMessage, requestWords, type MessageFailure } from '../../../src/views/messageGuard';
import { parseHostMessage as overviewHost } from '../../../src/protocol/runOverview';
import { parseHostMessage as compareRunsHost } from '../../../src/protocol/compareRuns';
import { parseHostMessage as compareAttemptsHost } from '../../../src/protocol/compareAttempts';
import { parseTrajectoryHostMessage } from '../../../src/protocol/trajectory';


/** Runs f, collecting the unhandled rejections the process sees meanwhile (and a turn after). */
async function unhandledDuring(f: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const on = (r: unknown) => { seen.push(r); };
  process.on('unhandledRejection', on);
  try {
    await f();
    await new Promise((r) => setTimeout(r, 20));
  } finally {
    process.off('unhandledRejection', on);
  }
  return seen;
}

test('a handler that finishes: true, nothing reported', async () => {
  const reports: MessageFailure[] = [];
  assert.equal(await guardMessage('ready', async () => {}, (f) => { reports.push(f); }), true);
  assert.equal(await guardMessage('ready', () => {}, (f) => { reports.push(f); }), true);
  assert.deepEqual(reports, []);
});

test('a handler that rejects or throws: false, reported once with the request and the error\'s message, nothing unhandled', async () => {
  const reports: MessageFailure[] = [];
  const boom = new Error('ENOENT: no such file, open \'/r/t/result.json\'');
  const unhandled = await unhandledDuring(async () => {
    assert.equal(await guardMessage('openAttempt', async () => { await Promise.resolve(); throw boom; }, (f) => { reports.push(f); }), false);
    assert.equal(await guardMessage('search', () => { throw new TypeError('x is undefined'); }, (f) => { reports.push(f); }), false);
    assert.equal(await guardMessage('copy', () => Promise.reject('clipboard refused'), (f) => { reports.push(f); }), false);
    const odd = { toString(): string { throw new Error('no'); } };
    assert.equal(await guardMessage('grid', () => Promise.reject(odd), (f) => { reports.push(f); }), false);
    assert.equal(await guardMessage('grid', () => Promise.reject(new Error('')), (f) => { reports.push(f); }), false);
  });
  assert.deepEqual(unhandled, []);
  assert.deepEqual(reports.map((r) => [r.request, r.message]), [
    ['openAttempt', 'ENOENT: no such file, open \'/r/t/result.json\''],
    ['search', 'x is undefined'],
    ['copy', 'clipboard refused'],
    ['grid', 'unknown error'],
    ['grid', 'Error'],
  ]);
  assert.equal(reports[0].error, boom, 'the error itself, for the log\'s stack');
});

test('a report that throws or rejects does not escape either; a long message is cut for the page and the notification', async () => {
  const unhandled = await unhandledDuring(async () => {
    assert.equal(await guardMessage('ready', () => Promise.reject(new Error('a')), () => { throw new Error('report failed'); }), false);
    assert.equal(await guardMessage('ready', () => Promise.reject(new Error('b')), () => Promise.reject(new Error('report failed'))), false);
  });
  assert.deepEqual(unhandled, []);
  let got: MessageFailure | undefined;
  await guardMessage('ready', () => Promise.reject(new Error('x'.repeat(5000))), (f) => { got = f; });
  assert.equal(got?.message.length, 1000);
  assert.ok(got?.message.endsWith('…'));
});

test('every panel\'s protocol accepts the host\'s `failed` message, and bounds it', () => {
  const failed = { type: 'failed', request: 'openAttempt', message: 'the attempt\'s folder is gone' };
  for (const parse of [overviewHost, compareRunsHost, compareAttemptsHost, parseTrajectoryHostMessage]) {
    const r = parse(failed);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.message, failed);
    assert.equal(parse({ ...failed, message: 'x'.repeat(4001) }).ok, false);
    assert.equal(parse({ type: 'failed', request: 'x' }).ok, false);
  }
});

test('requestWords: a page\'s message type as words for "Could not …"', () => {
  assert.deepEqual(['openProblem', 'moreRows', 'search', 'diffVerifier', 'ready'].map(requestWords),
    ['open problem', 'more rows', 'search', 'diff verifier', 'load this view']);
});
