// Rule 2 piece by piece: what a previous summary, the run config and the dataset's manifest.toml give, and how the
// identity is chosen from them (a flag, then this run's files, then the previous summary, warned where they differ).
// Real files in a temp folder; every expected value written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { FsPort } from '../../../src/core/fs/port';
import type { Problem } from '../../../src/core/model';
import { readManifestDataset, readPreviousSummary, readRunConfig, resolveIdentity, type RunIdentity } from '../../../src/core/summary/identity';
import { nodeFs, posix, tmpDir } from './helpers';

/** nodeFs handing out 256 KiB chunks, counting them. */
function counting() {
  const counter = { chunks: 0 };
  const port = Object.assign(Object.create(nodeFs) as FsPort, {
    async *readChunks(p: string) {
      const all = fs.readFileSync(p);
      for (let at = 0; at < all.length; at += 256 << 10) { counter.chunks++; yield all.subarray(at, at + (256 << 10)); }
    },
  });
  return { port, counter };
}
const failingReads = Object.assign(Object.create(nodeFs) as FsPort, {
  readFile: async () => { throw new Error('EIO'); },
  // eslint-disable-next-line require-yield
  async *readChunks(): AsyncGenerator<Uint8Array> { throw new Error('EIO'); },
});

test('readPreviousSummary: identity keys as written; lists or maps of reasons; wrong types left out', async () => {
  const d = posix(tmpDir('previous'));
  const write = (name: string, doc: unknown) => { fs.writeFileSync(`${d}/${name}`, JSON.stringify(doc, null, 2)); return `${d}/${name}`; };
  const problems: Problem[] = [];
  const full = write('full.json', {
    schema_version: 1, target: 't', taskset: null, agent: 5,
    dataset: { source: 's', name: null, version: 3, folder: '/f', digests: { a: 'da', b: 7 } },
    skipped: [{ task_id: 'x', reason: 'gone' }, { task_id: 'y', reason: 4 }, { task_id: 9, reason: 'r' }, null, 'z', { reason: 'no id' }],
    unvalidated: { u: 'why', v: null },
    tasks: [],
  });
  assert.deepEqual(await readPreviousSummary(nodeFs, full, problems), {
    target: 't', taskset: null, agent: undefined,
    dataset: { source: 's', name: null, version: undefined, folder: '/f', digests: { a: 'da' } },
    skipped: { x: 'gone', y: '' }, unvalidated: { u: 'why' },
  });
  assert.deepEqual(await readPreviousSummary(nodeFs, write('odd.json', { dataset: 'text', skipped: 'text', unvalidated: null }), problems), {
    target: undefined, taskset: undefined, agent: undefined, dataset: undefined, skipped: undefined, unvalidated: undefined,
  });
  assert.deepEqual((await readPreviousSummary(nodeFs, write('nodigests.json', { dataset: { digests: 'text' } }), problems))?.dataset,
    { source: undefined, name: undefined, version: undefined, folder: undefined, digests: undefined });
  assert.deepEqual(problems, []);
  // Nothing there, or a folder: no previous summary, nothing said.
  assert.equal(await readPreviousSummary(nodeFs, `${d}/gone.json`, problems), undefined);
  fs.mkdirSync(`${d}/folder.json`);
  assert.equal(await readPreviousSummary(nodeFs, `${d}/folder.json`, problems), undefined);
  assert.deepEqual(problems, []);
});

test('readPreviousSummary: a summary that does not parse is a warning and its identity is not kept', async () => {
  const d = posix(tmpDir('previous-bad'));
  fs.writeFileSync(`${d}/bad.json`, '{"target": "t", "taskset": ');
  const problems: Problem[] = [];
  assert.equal(await readPreviousSummary(nodeFs, `${d}/bad.json`, problems), undefined);
  assert.equal(problems.length, 1);
  assert.deepEqual({ ...problems[0], message: '' }, { file: `${d}/bad.json`, severity: 'warning', code: 'previous-summary-unreadable', message: '' });
  assert.match(problems[0].message, /^the previous summary does not parse \(.+\): its identity is not kept$/);
});

test('readPreviousSummary: reads only as far as the identity keys; a long or truncated tail after them does not matter', async () => {
  const d = posix(tmpDir('previous-head'));
  const identity = { target: 't', taskset: 'ts', agent: 'ag', dataset: { source: 's', name: 'n', version: 'v', folder: null, digests: {} }, skipped: {}, unvalidated: {} };
  const expected = { ...identity, dataset: { ...identity.dataset, digests: {} } };
  const tasks = Array.from({ length: 40000 }, (_, i) => ({ task_id: `task-${i}`, task_index: i, repeats: [] }));
  fs.writeFileSync(`${d}/big.json`, JSON.stringify({ schema_version: 1, ...identity, tasks }, null, 2));
  assert.ok(fs.statSync(`${d}/big.json`).size > 3 << 20);
  const { port, counter } = counting();
  const problems: Problem[] = [];
  assert.deepEqual(await readPreviousSummary(port, `${d}/big.json`, problems), expected);
  assert.equal(counter.chunks, 1, 'the first 256 KiB hold the identity');
  // Cut off in the task list (a summary being written, or truncated): the identity is still read, without a warning.
  const text = fs.readFileSync(`${d}/big.json`, 'utf8');
  fs.writeFileSync(`${d}/cut.json`, text.slice(0, 2000));
  assert.deepEqual(await readPreviousSummary(nodeFs, `${d}/cut.json`, problems), expected);
  // One line, no newline to cut at before the end: read whole.
  fs.writeFileSync(`${d}/oneline.json`, JSON.stringify({ ...identity, tasks }));
  assert.deepEqual(await readPreviousSummary(port, `${d}/oneline.json`, problems), expected);
  // Identity keys larger than the first tries (a 700 KB skipped map): read as the head doubles.
  const skipped = Object.fromEntries(Array.from({ length: 20000 }, (_, i) => [`task-${i}`, `reason ${i} `.repeat(3)]));
  fs.writeFileSync(`${d}/wide.json`, JSON.stringify({ ...identity, skipped, tasks: tasks.slice(0, 10) }, null, 2));
  assert.ok(fs.statSync(`${d}/wide.json`).size > 700 << 10);
  assert.deepEqual(await readPreviousSummary(port, `${d}/wide.json`, problems), { ...expected, skipped });
  assert.deepEqual(problems, []);
});

test('readRunConfig: {} when absent, a folder or unreadable', async () => {
  const d = posix(tmpDir('runconfig'));
  fs.mkdirSync(`${d}/folder.yaml`);
  fs.writeFileSync(`${d}/run_config.yaml`, 'num_repeats: 4\n');
  assert.deepEqual(await readRunConfig(nodeFs, `${d}/run_config.yaml`), { numRepeats: 4 });
  assert.deepEqual(await readRunConfig(nodeFs, `${d}/gone.yaml`), {});
  assert.deepEqual(await readRunConfig(nodeFs, `${d}/folder.yaml`), {});
  assert.deepEqual(await readRunConfig(failingReads, `${d}/run_config.yaml`), {});
});

test('readManifestDataset: source, name and version of [dataset] only, in TOML\'s three string forms', async () => {
  const d = posix(tmpDir('manifest'));
  const manifest = (...lines: string[]) => { fs.writeFileSync(`${d}/manifest.toml`, lines.join('\n')); return readManifestDataset(nodeFs, d); };
  assert.deepEqual(await manifest('name = "top level"', '[dataset]', 'source = "a \\"quoted\\" \\\\ one"', "name='single'",
    'version  =  1.2.0 # a comment', 'description = "not kept"', '# version = "commented"', '[other]', 'source = "other section"'),
  { source: 'a "quoted" \\ one', name: 'single', version: '1.2.0' });
  assert.deepEqual(await manifest('[dataset]', '  name = "indented"', '\tversion = "tabbed"', 'source="tight"'),
    { name: 'indented', version: 'tabbed', source: 'tight' });
  assert.deepEqual(await manifest('[datasets]', 'name = "x"', '[dataset.extra]', 'version = "y"'), {});
  assert.deepEqual(await manifest('source = "before any section"'), {});
  assert.deepEqual(await readManifestDataset(nodeFs, `${d}/gone`), {});
  fs.mkdirSync(`${d}/dir/manifest.toml`, { recursive: true });
  assert.deepEqual(await readManifestDataset(nodeFs, `${d}/dir`), {});
  assert.deepEqual(await readManifestDataset(failingReads, d), {});
});

test('resolveIdentity: a flag, else this run\'s files, else the previous summary; a difference is one warning per key', () => {
  const own: RunIdentity = { target: null, taskset: 'ts-own', agent: 'ag-own',
    dataset: { source: 'src-own', name: 'n-own', version: 'v-own', folder: '/own', digests: {} } };
  const previous = { target: 't-prev', taskset: 'ts-prev', agent: 'ag-prev',
    dataset: { source: 'src-prev', name: 'n-prev', version: 'v-prev', folder: '/prev', digests: { a: 'd' } } };
  const problems: Problem[] = [];
  assert.deepEqual(resolveIdentity({ agent: 'ag-flag' }, own, previous, 'f.json', problems), {
    target: 't-prev', taskset: 'ts-own', agent: 'ag-flag',
    dataset: { source: 'src-own', name: 'n-own', version: 'v-own', folder: '/own', digests: { a: 'd' } },
  });
  assert.deepEqual(problems.map((p) => [p.file, p.severity, p.code, p.message]), [
    ['taskset', "'ts-prev'", "'ts-own'"], ['dataset.source', "'src-prev'", "'src-own'"], ['dataset.name', "'n-prev'", "'n-own'"],
    ['dataset.version', "'v-prev'", "'v-own'"], ['dataset.folder', "'/prev'", "'/own'"],
  ].map(([key, prev, mine]) => ['f.json', 'warning', 'identity-changed', `the earlier summary says ${key} ${prev}, this run's files say ${mine}: this run's is written`]));
  // Nothing earlier, or the same values: nothing said; this run's digests win when it has any.
  problems.length = 0;
  const withDigests = { ...own, target: 't-own', dataset: { ...own.dataset, digests: { b: 'e' } } };
  assert.deepEqual(resolveIdentity(undefined, withDigests, { target: null, dataset: {} }, 'f.json', problems), withDigests);
  assert.deepEqual(resolveIdentity({}, withDigests, undefined, 'f.json', problems), withDigests);
  assert.deepEqual(resolveIdentity({ target: null, taskset: null }, withDigests, { ...previous, target: 't-own' }, 'f.json', problems).target, null);
  assert.deepEqual(resolveIdentity(undefined, withDigests, { target: 't-prev' }, 'f.json', problems).target, 't-own');
  assert.deepEqual(problems.map((p) => p.message.split(':')[0]), ["the earlier summary says agent 'ag-prev', this run's files say 'ag-own'",
    "the earlier summary says dataset.source 'src-prev', this run's files say 'src-own'", "the earlier summary says dataset.name 'n-prev', this run's files say 'n-own'",
    "the earlier summary says dataset.version 'v-prev', this run's files say 'v-own'", "the earlier summary says dataset.folder '/prev', this run's files say '/own'",
    "the earlier summary says target 't-prev', this run's files say 't-own'"]);
});

test('readPreviousSummary: a previous summary over the read limit is not read (a 300 MB one cost ~900 MB); said, its identity not kept', async () => {
  const dir = posix(tmpDir('prev-limit'));
  const file = `${dir}/r_run_summary.json`;
  fs.writeFileSync(file, JSON.stringify({ target: 'harbor:x', taskset: 'ts', agent: 'a', tasks: [{ task_id: 'x'.repeat(5000) }] }));
  const c = counting();
  const limited = Object.assign(Object.create(c.port) as FsPort, { maxFileBytes: 1000 });
  const problems: Problem[] = [];
  assert.equal(await readPreviousSummary(limited, file, problems), undefined);
  assert.equal(c.counter.chunks, 0, 'nothing read');
  assert.deepEqual(problems.map((p) => [p.file, p.severity, p.code]), [[file, 'warning', 'previous-summary-unreadable']]);
  assert.match(problems[0].message, /is \d+ bytes, over the 1000-byte read limit: its identity is not kept/);
  // Under the limit, as before.
  assert.equal((await readPreviousSummary(Object.assign(Object.create(c.port) as FsPort, { maxFileBytes: 1e6 }), file, []))?.taskset, 'ts');
});
