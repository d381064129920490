// The shared NeMo Gym sample, moved (copied to a temp dir: every row names its verifier folder by the original
// absolute path), must give back its expected `rollouts_run_summary.json` byte for byte, plus our schema_version.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRunSummary, serializeSummary, writeRunSummary } from '../../../src/core/summary';
import { RunSummarySchema } from '../../../src/core/schemas/runSummary';
import { copyFixture, fixtureDir, nodeFs, posix } from './helpers';

const src = fixtureDir();

test('the moved sample run reproduces its expected summary exactly', { skip: !src && 'no shared fixtures' }, async () => {
  const dir = copyFixture(src!);
  const expected = fs.readFileSync(path.join(dir, 'rollouts_run_summary.json'), 'utf8');
  const res = await writeRunSummary(nodeFs, posix(path.join(dir, 'rollouts.jsonl')));
  assert.equal(res.error, undefined);
  const written = fs.readFileSync(path.join(dir, 'rollouts_run_summary.json'), 'utf8');
  assert.equal(written, expected.replace(/^\{\n/, '{\n  "schema_version": 1,\n'));
  assert.ok(RunSummarySchema.safeParse(JSON.parse(written)).success);
  // The identity kept from the previous summary survives a second regeneration unchanged.
  const again = await buildRunSummary(nodeFs, posix(path.join(dir, 'rollouts.jsonl')));
  assert.equal(serializeSummary(again.document), written);
  // The absent verifier folder is reported as a Problem too.
  assert.ok(res.problems.some((p) => p.code === 'missing-path' && p.message.includes('resources-session-19c06ac165441cb97932123d63eca824')));
});

test('without the previous summary the run config still gives the identity', { skip: !src && 'no shared fixtures' }, async () => {
  const dir = copyFixture(src!);
  fs.rmSync(path.join(dir, 'rollouts_run_summary.json'));
  const { document } = await buildRunSummary(nodeFs, posix(path.join(dir, 'rollouts.jsonl')));
  assert.equal(document.target, null); // not recorded anywhere but in a summary
  assert.equal(document.taskset, 'tb-mini');
  assert.equal(document.agent, 'terminus_2_sandboxed_agent');
  assert.deepEqual(document.dataset, {
    source: null, name: null, version: null, folder: '../../../datasets/tb-mini',
    digests: {
      'hello-world': '5ed3dfd1e35b77d72d29ea14f2f0ff047efd0aa26e2d918a97babde5434556c7',
      'fix-permissions': 'aa35a605972f1b16aac8c0983510ece285fb223b117daab797021aad1414b2dd',
      'count-lines': '115cbed2a2ff9a39de8d66a4fcfcc86151610351acabc4c11b277d604f5886d6',
      'parse-csv': 'cb1389c948f18b79488507042c9663a4bc17767588fb7a64510a1b83ffe0cf3a',
    },
  });
  assert.deepEqual(document.skipped, {});
});

test('the exported JSON Schema accepts the summaries NeMo Gym wrote (no schema_version) and requires our keys', { skip: !src && 'no shared fixtures' }, async () => {
  const { runSummaryJsonSchema } = await import('../../../scripts/export-schema');
  const schema = runSummaryJsonSchema() as { required: string[]; properties: Record<string, unknown> };
  assert.ok(!schema.required.includes('schema_version'));
  assert.ok(schema.required.includes('files') && schema.required.includes('tasks'));
  const lenient = RunSummarySchema.partial({ schema_version: true });
  for (const f of ['rollouts_run_summary.json', 'variants/fresh_start_died_before_collector_run_summary.json', 'variants/validate_no_solution_run_summary.json']) {
    assert.ok(lenient.safeParse(JSON.parse(fs.readFileSync(path.join(src!, f), 'utf8'))).success, f);
  }
});
