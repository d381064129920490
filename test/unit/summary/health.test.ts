// Rule 9 piece by piece: what the quality summary records (`run.rollouts`), what `<stem>_sources.json` lists, and
// when the two health reports are linked, with the info Problem that says why not. Real files in a temp folder;
// every expected path and message written by hand from docs/run-summary.md (rule 9).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Problem } from '../../../src/core/model';
import { aggregationShards, healthReports, recordedSources } from '../../../src/core/summary/health';
import { PathRelator } from '../../../src/core/summary/paths';
import { nodeFs, posix, tmpDir } from './helpers';

function folder(label: string, files: Record<string, string | null>): string {
  const dir = posix(fs.realpathSync(tmpDir(label)));
  for (const [name, text] of Object.entries(files)) {
    const p = `${dir}/${name}`;
    fs.mkdirSync(text === null ? p : p.slice(0, p.lastIndexOf('/')), { recursive: true });
    if (text !== null) fs.writeFileSync(p, text);
  }
  return dir;
}

test('recordedSources: run.rollouts as a list or one string, relative to the report; anything else records none', async () => {
  const d = folder('recorded', {
    'list.json': JSON.stringify({ run: { rollouts: ['a.jsonl', '/abs/b.jsonl', 'sub/../c.jsonl'] } }),
    'one.json': JSON.stringify({ run: { rollouts: 'a.jsonl' } }),
    'mixed.json': JSON.stringify({ run: { rollouts: ['a.jsonl', 5] } }),
    'object.json': JSON.stringify({ run: { rollouts: { a: 'a.jsonl' } } }),
    'runnull.json': JSON.stringify({ run: null }),
    'null.json': 'null',
    'number.json': '5',
    'bad.json': '{"run": ',
    'sub/': null,
  });
  assert.deepEqual(await recordedSources(nodeFs, `${d}/list.json`), [`${d}/a.jsonl`, '/abs/b.jsonl', `${d}/c.jsonl`]);
  assert.deepEqual(await recordedSources(nodeFs, `${d}/one.json`), [`${d}/a.jsonl`]);
  for (const name of ['mixed', 'object', 'runnull', 'null', 'number', 'bad', 'gone']) {
    assert.equal(await recordedSources(nodeFs, `${d}/${name}.json`), null, name);
  }
});

test('aggregationShards: a list or {"shards": [...]}, entries as paths or {"path"}, relative to the sidecar; else a warning', async () => {
  const d = folder('shards', {
    'list.json': JSON.stringify(['s1.jsonl', { path: 's2.jsonl' }, { path: 5 }, null, 7, '', { other: 'x' }, '/abs/s3.jsonl']),
    'object.json': JSON.stringify({ shards: ['s1.jsonl'] }),
    'noshards.json': JSON.stringify({ shards: 's1.jsonl' }),
    'null.json': 'null',
    'bad.json': '[',
  });
  const problems: Problem[] = [];
  assert.deepEqual(await aggregationShards(nodeFs, null, problems), []);
  assert.deepEqual(await aggregationShards(nodeFs, `${d}/list.json`, problems), [`${d}/s1.jsonl`, `${d}/s2.jsonl`, '/abs/s3.jsonl']);
  assert.deepEqual(await aggregationShards(nodeFs, `${d}/object.json`, problems), [`${d}/s1.jsonl`]);
  assert.equal(problems.length, 0);
  for (const name of ['noshards', 'null']) {
    assert.deepEqual(await aggregationShards(nodeFs, `${d}/${name}.json`, problems), [], name);
  }
  assert.deepEqual([...problems], ['noshards', 'null'].map((name) => ({ file: `${d}/${name}.json`, severity: 'warning', code: 'sources-unreadable',
    message: `${d}/${name}.json holds no list of shards (expected [paths] or {"shards": [paths]})` })));
  problems.length = 0;
  assert.deepEqual(await aggregationShards(nodeFs, `${d}/bad.json`, problems), []);
  assert.equal(problems.length, 1);
  assert.deepEqual({ ...problems[0], message: undefined }, { file: `${d}/bad.json`, severity: 'warning', code: 'sources-unreadable', message: undefined });
  assert.match(problems[0].message, new RegExp(`^${d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/bad\\.json does not parse: .+`));
  // Without a problems list a bad sidecar is still [] (no throw).
  assert.deepEqual(await aggregationShards(nodeFs, `${d}/bad.json`), []);
  assert.deepEqual(await aggregationShards(nodeFs, `${d}/noshards.json`), []);
});

test('healthReports: linked only when the report is a file, at least as new as the rollouts, and records them (or every shard)', async () => {
  const quality = (rollouts: unknown) => JSON.stringify({ run: { rollouts } });
  const d = folder('health', {
    'rollouts.jsonl': '{}\n', 'other.jsonl': '{}\n', 's1.jsonl': '', 's2.jsonl': '',
    'ours/quality_summary.json': quality(['../rollouts.jsonl']), 'ours/rollout_verdicts.jsonl': '',
    'dirverdicts/quality_summary.json': quality(['../rollouts.jsonl']), 'dirverdicts/rollout_verdicts.jsonl/': null,
    'noverdicts/quality_summary.json': quality(['../rollouts.jsonl']),
    'other/quality_summary.json': quality(['../other.jsonl']),
    'norecord/quality_summary.json': JSON.stringify({ run: {} }),
    'old/quality_summary.json': quality(['../rollouts.jsonl']),
    'same/quality_summary.json': quality(['../rollouts.jsonl']),
    'adir/quality_summary.json/': null,
    'shards/quality_summary.json': quality(['../s1.jsonl', '../s2.jsonl']), 'shards/rollout_verdicts.jsonl': '',
    'someshards/quality_summary.json': quality(['../s1.jsonl']),
    'sources.json': JSON.stringify(['s1.jsonl', 's2.jsonl']),
    'nosources.json': JSON.stringify([]),
  });
  const t = 1_700_000_000;
  fs.utimesSync(`${d}/rollouts.jsonl`, t, t);
  fs.utimesSync(`${d}/same/quality_summary.json`, t, t);
  fs.utimesSync(`${d}/old/quality_summary.json`, t - 1, t - 1);
  const rolloutsStat = await nodeFs.stat(`${d}/rollouts.jsonl`);
  const rel = await PathRelator.create(nodeFs, `${d}/rollouts_run_summary.json`);
  const check = async (sub: string, opts: { rolloutsPath?: string | null; stat?: boolean; sources?: string | null } = {}) => {
    const problems: Problem[] = [];
    const got = await healthReports(nodeFs, rel, {
      rolloutsPath: opts.rolloutsPath === undefined ? `${d}/rollouts.jsonl` : opts.rolloutsPath,
      rolloutsStat: opts.stat === false ? undefined : rolloutsStat,
      sourcesPath: opts.sources === undefined ? null : opts.sources,
      qualityPath: `${d}/${sub}/quality_summary.json`, verdictsPath: `${d}/${sub}/rollout_verdicts.jsonl`, problems,
    });
    return { got: [got.quality_summary, got.rollout_verdicts], notes: problems.map((p) => `${p.severity} ${p.code} ${p.file.slice(d.length + 1)}: ${p.message}`) };
  };
  const notLinked = (sub: string, why: string) => ({ got: [null, null],
    notes: [`info health-report-not-linked ${sub}/quality_summary.json: quality_summary.json is not linked: ${why}`] });
  assert.deepEqual(await check('ours'), { got: ['ours/quality_summary.json', 'ours/rollout_verdicts.jsonl'], notes: [] });
  assert.deepEqual(await check('dirverdicts'), { got: ['dirverdicts/quality_summary.json', null], notes: [] });
  assert.deepEqual(await check('noverdicts'), { got: ['noverdicts/quality_summary.json', null], notes: [] });
  assert.deepEqual(await check('gone'), { got: [null, null], notes: [] });
  assert.deepEqual(await check('adir'), { got: [null, null], notes: [] });
  assert.deepEqual(await check('ours', { rolloutsPath: null }), notLinked('ours', 'the run has no rollouts of its own'));
  assert.deepEqual(await check('ours', { stat: false }), notLinked('ours', 'the run has no rollouts of its own'));
  assert.deepEqual(await check('old'), notLinked('old', 'it is older than the rollouts'));
  assert.deepEqual(await check('same'), { got: ['same/quality_summary.json', null], notes: [] });
  assert.deepEqual(await check('norecord'), notLinked('norecord', 'it records no run.rollouts (or does not parse)'));
  assert.deepEqual(await check('other'), notLinked('other', 'its run.rollouts names other rollouts'));
  // A merged file: linked when the report records every shard the sidecar lists (not just some; not with no shards).
  assert.deepEqual(await check('shards', { sources: `${d}/sources.json` }), { got: ['shards/quality_summary.json', 'shards/rollout_verdicts.jsonl'], notes: [] });
  assert.deepEqual(await check('someshards', { sources: `${d}/sources.json` }), notLinked('someshards', 'its run.rollouts names other rollouts'));
  assert.deepEqual(await check('shards', { sources: `${d}/nosources.json` }), notLinked('shards', 'its run.rollouts names other rollouts'));
});
