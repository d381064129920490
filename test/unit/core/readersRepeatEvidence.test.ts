// One repeat's evidence (src/core/readers/nemo/repeatEvidence.ts) on an in-memory file system: each field resolved
// against the summary's folder and checked on disk now, from one listing of the verifier folder (given beforehand or
// read here) or a stat, the ctrf.json of the folder, the paths outside the run, and the paths the row lists as missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FsPort, FileRead } from '../../../src/core/fs/port';
import type { Evidence } from '../../../src/core/model';
import { parseJsonDocument } from '../../../src/core/readers/jsonFile';
import { repeatEvidence, resolveRel } from '../../../src/core/readers/nemo/repeatEvidence';
import { outsideMessage } from '../../../src/core/containment';
import { MemFs } from '../../../scripts/sample-runs/memFs';

type Obj = Record<string, unknown>;
const ROOT = '/r';
const CTRF = JSON.stringify({ results: { tests: [{ name: 't::ok', status: 'passed' }, { name: 't::bad', status: 'failed', message: 'boom' }] } });

/** A MemFs with the given files (and empty folders), counting the stats, listings and reads asked of it. */
function disk(files: Record<string, string>, emptyDirs: string[] = []) {
  const m = new MemFs();
  for (const [p, t] of Object.entries(files)) m.put(p, t);
  for (const d of emptyDirs) (m as unknown as { addDir(d: string): void }).addDir(d);
  const asked = { stat: [] as string[], readDir: [] as string[], readFile: [] as string[] };
  const port = {
    stat: (p: string) => { asked.stat.push(p); return m.stat(p); },
    readDir: (p: string) => { asked.readDir.push(p); return m.readDir(p); },
    readFile: (p: string) => { asked.readFile.push(p); return m.readFile(p); },
  } as unknown as FsPort;
  return { port, asked, m };
}

/** A summary document holding the row at tasks[0].repeats[0] (so problems have a line). */
function docOf(raw: Obj) {
  return parseJsonDocument(`${ROOT}/x_run_summary.json`, JSON.stringify({ files: {}, tasks: [{ task_id: 'hello', repeats: [raw] }] }, null, 2), 'run summary');
}
const AT = ['tasks', 0, 'repeats', 0];

async function evidenceOf(port: FsPort, raw: Obj, opts: Parameters<typeof repeatEvidence>[6] = {}) {
  const doc = docOf(raw);
  return repeatEvidence(port, doc, ROOT, raw, AT, 'hello #1', opts);
}

const FULL = {
  '/r/v/s0/test-stdout.txt': 'ok', '/r/v/s0/reward.txt': '1', '/r/v/s0/ctrf.json': CTRF, '/r/v/s0/artifacts/out.bin': 'x',
};
const FULL_ROW: Obj = {
  verifier_logs: 'v/s0', test_stdout: 'v/s0/test-stdout.txt', reward_file: 'v/s0/reward.txt', trajectory: 'v/s0/trajectory.json', artifacts: 'v/s0/artifacts',
};
const FULL_EVIDENCE: Evidence[] = [
  { kind: 'verifier-logs', label: 'verifier logs', path: '/r/v/s0', isDir: true, present: true },
  { kind: 'ctrf', label: 'ctrf.json', path: '/r/v/s0/ctrf.json', isDir: false, present: true, failedTests: [{ name: 't::bad', message: 'boom' }] },
  { kind: 'test-stdout', label: 'test-stdout.txt', path: '/r/v/s0/test-stdout.txt', isDir: false, present: true },
  { kind: 'reward-file', label: 'reward.txt', path: '/r/v/s0/reward.txt', isDir: false, present: true },
  { kind: 'trajectory', label: 'trajectory.json', path: '/r/v/s0/trajectory.json', isDir: false, present: false, namedBy: 'the run summary names it' },
  { kind: 'artifacts', label: 'artifacts', path: '/r/v/s0/artifacts', isDir: true, present: true },
];

test('every field checked on disk from one listing of the verifier folder; a file gone is missing evidence at its JSON path', async () => {
  const { port, asked } = disk(FULL);
  const ev = await evidenceOf(port, FULL_ROW);
  assert.deepEqual(ev.evidence, FULL_EVIDENCE);
  assert.equal(ev.dir, '/r/v/s0');
  assert.deepEqual(ev.missing, ['/r/v/s0/trajectory.json']);
  assert.equal(ev.problems.length, 1);
  const p = ev.problems[0];
  assert.deepEqual([p.file, p.jsonPath, p.severity, p.code, p.message], ['/r/x_run_summary.json', [...AT, 'trajectory'], 'warning', 'missing-evidence',
    'v/s0/trajectory.json (trajectory of hello #1) is named by the run summary but is no longer on disk']);
  assert.equal(typeof p.line, 'number');
  // one listing answers for the folder and the files in it: no stat, the ctrf.json read once
  assert.deepEqual(asked, { stat: [], readDir: ['/r/v/s0'], readFile: ['/r/v/s0/ctrf.json'] });
});

test('the listing given beforehand answers without the disk; the ctrf.json read beforehand is used; readCtrf false reads none', async () => {
  const { port, asked, m } = disk(FULL);
  const listings = new Map([['/r/v/s0', await m.readDir('/r/v/s0')]]);
  const ctrfs = new Map<string, FileRead>([['/r/v/s0/ctrf.json', { text: CTRF }]]);
  assert.deepEqual((await evidenceOf(port, FULL_ROW, { listings, ctrfs })).evidence, FULL_EVIDENCE);
  assert.deepEqual(asked, { stat: [], readDir: [], readFile: [] });
  // a ctrf.json read beforehand that did not parse, or could not be read: shown, without failed tests
  for (const read of [{ text: '{not json' }, { missing: true }] as FileRead[]) {
    const ev = await evidenceOf(port, FULL_ROW, { listings, ctrfs: new Map([['/r/v/s0/ctrf.json', read]]) });
    assert.deepEqual(ev.evidence[1], { kind: 'ctrf', label: 'ctrf.json', path: '/r/v/s0/ctrf.json', isDir: false, present: true });
  }
  // not read beforehand: read here
  const here = await evidenceOf(port, FULL_ROW, { listings, ctrfs: new Map() });
  assert.deepEqual(here.evidence[1], FULL_EVIDENCE[1]);
  // a repeat that passed: the ctrf.json is shown, not read
  const before = asked.readFile.length;
  const passed = await evidenceOf(port, FULL_ROW, { listings, readCtrf: false });
  assert.deepEqual(passed.evidence[1], { kind: 'ctrf', label: 'ctrf.json', path: '/r/v/s0/ctrf.json', isDir: false, present: true });
  assert.equal(asked.readFile.length, before);
  assert.deepEqual(asked.stat, []);
});

test('a listing given beforehand for another folder: this one is read here', async () => {
  const { port, asked, m } = disk(FULL);
  const listings = new Map([['/r/v/other', await m.readDir('/r/v/s0')]]);
  assert.deepEqual((await evidenceOf(port, FULL_ROW, { listings })).evidence, FULL_EVIDENCE);
  assert.deepEqual(asked.readDir, ['/r/v/s0']);
});

test('a verifier folder that is gone, empty, or a file: every field still told right', async () => {
  const row: Obj = { verifier_logs: 'v/s0', test_stdout: 'v/s0/test-stdout.txt' };
  // gone: both missing, the folder still a folder
  for (const listings of [undefined, new Map([['/r/v/s0', undefined]])]) {
    const gone = await evidenceOf(disk({ '/r/v/other/x': '' }).port, row, listings ? { listings } : {});
    assert.deepEqual(gone.evidence.map((e) => [e.kind, e.present, e.isDir]), [['verifier-logs', false, true], ['test-stdout', false, false]]);
    assert.deepEqual(gone.missing, ['/r/v/s0', '/r/v/s0/test-stdout.txt']);
    assert.equal(gone.evidence[0].namedBy, 'the run summary names it');
    assert.deepEqual(gone.problems.map((p) => p.jsonPath), [[...AT, 'verifier_logs'], [...AT, 'test_stdout']]);
    assert.match(gone.problems[0].message, /^v\/s0 \(verifier_logs of hello #1\) is named/);
    assert.equal(gone.dir, '/r/v/s0', 'the folder the row names, even when gone');
  }
  // empty: the folder is there, the file is not
  const empty = disk({}, ['/r/v/s0']);
  const e = await evidenceOf(empty.port, row);
  assert.deepEqual(e.evidence.map((x) => [x.kind, x.present, x.isDir]), [['verifier-logs', true, true], ['test-stdout', false, false]]);
  assert.deepEqual(e.missing, ['/r/v/s0/test-stdout.txt']);
  // a file where the folder should be: present, not a folder, no ctrf.json looked for in it
  for (const listings of [undefined, new Map([['/r/v/s0', undefined]])]) {
    const f = await evidenceOf(disk({ '/r/v/s0': 'a file' }).port, row, listings ? { listings } : {});
    assert.deepEqual(f.evidence.map((x) => [x.kind, x.present, x.isDir]), [['verifier-logs', true, false], ['test-stdout', false, false]]);
    assert.deepEqual(f.missing, ['/r/v/s0/test-stdout.txt']);
  }
  // a ctrf.json that is a folder is no ctrf report
  const d = await evidenceOf(disk({ '/r/v/s0/ctrf.json/x': '' }).port, { verifier_logs: 'v/s0' });
  assert.deepEqual(d.evidence.map((x) => x.kind), ['verifier-logs']);
});

test('files outside the listed folder (a subfolder, a sibling whose name starts alike) are asked of the disk', async () => {
  const { port, asked } = disk({
    '/r/v/s0/x': '', '/r/v/s0/sub/test-stdout.txt': 'ok', '/r/v/s0x/reward.txt': '1', '/r/v/s1/trajectory.json': '{}', '/r/art/artifacts/y': '',
  });
  const ev = await evidenceOf(port, {
    verifier_logs: 'v/s0', test_stdout: 'v/s0/sub/test-stdout.txt', reward_file: 'v/s0x/reward.txt', trajectory: 'v/s1/trajectory.json', artifacts: 'art/artifacts',
  });
  assert.deepEqual(ev.evidence.map((e) => [e.kind, e.present, e.isDir]), [
    ['verifier-logs', true, true], ['test-stdout', true, false], ['reward-file', true, false], ['trajectory', true, false], ['artifacts', true, true]]);
  assert.deepEqual(ev.missing, []);
  assert.deepEqual(ev.problems, []);
  assert.deepEqual(asked.stat, ['/r/v/s0/sub/test-stdout.txt', '/r/v/s0x/reward.txt', '/r/v/s1/trajectory.json', '/r/art/artifacts']);
  // a file of the folder's type that the listing says is a folder: present, a folder
  const odd = await evidenceOf(disk({ '/r/v/s0/test-stdout.txt/inner': '' }).port, { verifier_logs: 'v/s0', test_stdout: 'v/s0/test-stdout.txt' });
  assert.deepEqual(odd.evidence[1], { kind: 'test-stdout', label: 'test-stdout.txt', path: '/r/v/s0/test-stdout.txt', isDir: true, present: true });
});

test('paths outside the run\'s folder: flagged at their field, never looked at; the label is the last segment or the path as written', async () => {
  const { port, asked } = disk({ '/etc/passwd': 'x', '/other/logs/ctrf.json': CTRF });
  const ev = await evidenceOf(port, { verifier_logs: '../other/logs', test_stdout: '/etc/passwd', reward_file: '..', trajectory: 'v/t.json' });
  assert.deepEqual(ev.evidence, [
    { kind: 'verifier-logs', label: 'verifier logs', path: '/other/logs', isDir: true, present: false, outside: true },
    { kind: 'test-stdout', label: 'passwd', path: '/etc/passwd', isDir: false, present: false, outside: true },
    { kind: 'reward-file', label: '..', path: '/', isDir: false, present: false, outside: true },
    { kind: 'trajectory', label: 't.json', path: '/r/v/t.json', isDir: false, present: false, namedBy: 'the run summary names it' },
  ]);
  assert.deepEqual(ev.problems.map((p) => [p.code, p.jsonPath, p.severity, p.message]), [
    ['outside-run', [...AT, 'verifier_logs'], 'warning', outsideMessage('verifier_logs of hello #1', '../other/logs', ROOT)],
    ['outside-run', [...AT, 'test_stdout'], 'warning', outsideMessage('test_stdout of hello #1', '/etc/passwd', ROOT)],
    ['outside-run', [...AT, 'reward_file'], 'warning', outsideMessage('reward_file of hello #1', '..', ROOT)],
    ['missing-evidence', [...AT, 'trajectory'], 'warning', 'v/t.json (trajectory of hello #1) is named by the run summary but is no longer on disk'],
  ]);
  assert.equal(ev.dir, undefined, 'an outside log folder is not the attempt\'s folder');
  assert.deepEqual(ev.missing, ['/r/v/t.json']);
  assert.ok(!asked.stat.some((p) => !p.startsWith('/r/')) && !asked.readDir.some((p) => !p.startsWith('/r/')), 'nothing outside is looked at');
  assert.deepEqual(asked.readFile, []);
});

test('the paths the row lists as missing: checked again, each once, their kind from their name; outside ones flagged', async () => {
  const { port } = disk({ '/r/v/back/test-stdout.txt': 'ok' });
  const ev = await evidenceOf(port, {
    test_stdout: 'v/s0/test-stdout.txt',
    missing: [
      'v/s0/test-stdout.txt', // the field's own path: already missing, not twice
      7, null, '',
      'v/back/test-stdout.txt', // there again: present, not missing
      'v/s0/reward.json', 'v/s0/trajectory.json', 'v/s0/ctrf.json', 'v/s0/artifacts', 'v/s0', 'v/s1',
      '../elsewhere/reward.txt', '/abs/artifacts', '..',
    ],
  });
  const named = 'the result row of hello #1 names it';
  assert.deepEqual(ev.evidence, [
    { kind: 'test-stdout', label: 'test-stdout.txt', path: '/r/v/s0/test-stdout.txt', isDir: false, present: false, namedBy: 'the run summary names it' },
    { kind: 'test-stdout', label: 'test-stdout.txt', path: '/r/v/back/test-stdout.txt', isDir: false, present: true, namedBy: named },
    { kind: 'reward-file', label: 'reward.json', path: '/r/v/s0/reward.json', isDir: false, present: false, namedBy: named },
    { kind: 'trajectory', label: 'trajectory.json', path: '/r/v/s0/trajectory.json', isDir: false, present: false, namedBy: named },
    { kind: 'ctrf', label: 'ctrf.json', path: '/r/v/s0/ctrf.json', isDir: false, present: false, namedBy: named },
    { kind: 'artifacts', label: 'artifacts', path: '/r/v/s0/artifacts', isDir: true, present: false, namedBy: named },
    { kind: 'verifier-logs', label: 'verifier logs', path: '/r/v/s0', isDir: true, present: false, namedBy: named },
    { kind: 'verifier-logs', label: 'verifier logs', path: '/r/v/s1', isDir: true, present: false, namedBy: named },
    { kind: 'reward-file', label: 'reward.txt', path: '/elsewhere/reward.txt', isDir: false, present: false, outside: true },
    { kind: 'artifacts', label: 'artifacts', path: '/abs/artifacts', isDir: true, present: false, outside: true },
    { kind: 'verifier-logs', label: '..', path: '/', isDir: true, present: false, outside: true },
  ]);
  assert.deepEqual(ev.missing, ['/r/v/s0/test-stdout.txt', '/r/v/s0/reward.json', '/r/v/s0/trajectory.json', '/r/v/s0/ctrf.json', '/r/v/s0/artifacts', '/r/v/s0', '/r/v/s1']);
  assert.equal(ev.dir, '/r/v/s0', 'the first folder the row lists');
  const outside = ev.problems.filter((p) => p.code === 'outside-run');
  assert.deepEqual(outside, ['../elsewhere/reward.txt', '/abs/artifacts', '..'].map((rel) => ({
    file: '/r/x_run_summary.json', severity: 'warning', code: 'outside-run', message: outsideMessage('the result row of hello #1', rel, ROOT) })));
  // the row's own verifier folder stays the attempt's folder
  const own = await evidenceOf(disk({}, ['/r/v/own']).port, { verifier_logs: 'v/own', missing: ['v/s1'] });
  assert.equal(own.dir, '/r/v/own');
  // `missing` that is not a list: nothing more
  const notList = await evidenceOf(disk({}).port, { missing: 'v/s1' });
  assert.deepEqual([notList.evidence, notList.missing, notList.problems, notList.dir], [[], [], [], undefined]);
});

test('a summary folder ending in "/.." or "/." is resolved, not joined as written', () => {
  assert.equal(resolveRel('/r/s', 'a/b'), '/r/s/a/b');
  assert.equal(resolveRel('/r/..', 'a/b'), '/a/b');
  assert.equal(resolveRel('/r/.', 'a/b'), '/r/a/b');
  assert.equal(resolveRel('/r/s/..', 'a'), '/r/a');
});
