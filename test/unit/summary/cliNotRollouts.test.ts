// `harbor-runs summary` / `signatures` given a path that is not a rollouts file — a sidecar picked by tab completion,
// the stem typed without `.jsonl`, health verdicts, the collated input — refuse it (exit 2, a line saying what it is
// and which file to give) and write nothing. Before, `summary results/rollouts` read rollouts_failures.jsonl and the
// materialized inputs as a run with no rollouts and replaced the good summary with one where every scored repeat
// was missing; `summary rollouts_failures.jsonl` wrote rollouts_failures_run_summary.json, a second, phantom run.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commands } from '../../../src/cli/commands';
import { notRolloutsWhy } from '../../../src/core/summary';
import { buildRun } from './builders';
import { posix, tmpDir } from './helpers';

async function cli(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const e = process.stderr.write;
  process.stderr.write = ((s: string | Uint8Array) => { err += String(s); return true; }) as typeof process.stderr.write;
  try {
    const [name, ...rest] = argv;
    return { code: await commands[name](rest), err };
  } finally {
    process.stderr.write = e;
  }
}

test('summary and signatures refuse what is not a rollouts file; the good summary stays, no other file appears', async () => {
  const dir = posix(tmpDir('cli-not-rollouts'));
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'failed' }] }] }));
  assert.equal((await cli(['summary', rollouts])).code, 0);
  const summary = path.join(dir, 'rollouts_run_summary.json');
  const good = fs.readFileSync(summary, 'utf8');
  const listing = () => fs.readdirSync(dir).sort();
  const before = listing();
  const cases: [string, RegExp][] = [
    [`${dir}/rollouts`, /rollouts is not a rollouts file \(no \.jsonl ending: rollouts\.jsonl\?\)/],
    [`${dir}/rollouts_failures.jsonl`, /rollouts_failures\.jsonl is the failures sidecar of rollouts\.jsonl, not a rollouts file: give that one/],
    [`${dir}/rollouts_materialized_inputs.jsonl`, /is the materialized_inputs sidecar of rollouts\.jsonl/],
    [`${dir}/rollout_verdicts.jsonl`, /rollout_verdicts\.jsonl is not a rollouts file \(health verdicts or metrics\)/],
    [`${dir}/rollouts/preprocessed_datasets/validation.jsonl`, /is the collated input under preprocessed_datasets\//],
  ];
  for (const [p, why] of cases) {
    for (const command of ['summary', 'signatures']) {
      const r = await cli([command, p]);
      assert.equal(r.code, 2, `${command} ${p}: ${r.err}`);
      assert.match(r.err, new RegExp(`^harbor-runs ${command}: .*${why.source}.*; nothing (written|recorded)\\n`));
    }
  }
  assert.equal(fs.readFileSync(summary, 'utf8'), good);
  assert.deepEqual(listing(), before);
});

test('notRolloutsWhy: nothing to say of a rollouts file, whatever its stem', () => {
  for (const p of ['/r/rollouts.jsonl', '/r/tb_eval.jsonl', '/r/my_failures_report.jsonl', '/r/x.jsonl']) assert.equal(notRolloutsWhy(p), undefined, p);
  assert.match(notRolloutsWhy('/r/_failures.jsonl') ?? '', /not a rollouts file/);
});
