// package.json's `when` clauses say what the code says: "Write Run Summary" is offered on exactly the files
// isRolloutsFile accepts (explorer and editor-title menus), and the sample clause evaluator understands them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isRolloutsFile } from '../../src/core/summary/paths';
import { repoRoot } from '../support/paths';
import { evaluateWhen } from '../support/whenClause';

interface MenuEntry { command: string; when?: string }
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuEntry[]> };
};

const PATHS = [
  '/w/run/rollouts.jsonl', '/w/run/tb_mini.jsonl', '/w/run/rollouts_failures.jsonl', '/w/run/rollouts_materialized_inputs.jsonl',
  '/w/run/rollouts_prepare.jsonl', '/w/run/rollouts_attempts.jsonl', '/w/run/rollouts_multistage_state.jsonl',
  '/w/run/rollouts_items.jsonl', '/w/run/my_task.jsonl', '/w/run/rollout_verdicts.jsonl', '/w/run/health_verdicts.jsonl',
  '/w/run/train_metrics.jsonl', '/w/run/metrics.jsonl', '/w/run/train/metrics.jsonl', '/w/run/summary_metrics2.jsonl',
  '/w/preprocessed_datasets/x/rollouts.jsonl', '/w/run/.jsonl', '/w/run/rollouts.json', '/w/run/rollouts.jsonl.bak',
  '/w/run/failures.jsonl', '/w/run/items.jsonl',
];

function extname(p: string): string {
  const name = path.posix.basename(p);
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(i) : '';
}

for (const menu of ['explorer/context', 'editor/title/context']) {
  test(`${menu}: Write Run Summary is offered on exactly the rollouts files`, () => {
    const entries = manifest.contributes.menus[menu].filter((e) => e.command === 'harborRuns.writeRunSummary');
    assert.ok(entries.length > 0, `${menu} offers the command`);
    for (const e of entries) {
      for (const p of PATHS) {
        const ctx = { isWorkspaceTrusted: true, resourceExtname: extname(p), resourceFilename: path.posix.basename(p), resourcePath: p };
        assert.equal(evaluateWhen(e.when ?? 'true', ctx), isRolloutsFile(p), `${p}: the manifest and isRolloutsFile disagree`);
      }
      const untrusted = { isWorkspaceTrusted: false, resourceExtname: '.jsonl', resourceFilename: 'rollouts.jsonl', resourcePath: '/w/rollouts.jsonl' };
      assert.equal(evaluateWhen(e.when ?? 'true', untrusted), false, 'never in an untrusted workspace');
    }
  });
}

test('isRolloutsFile: sidecars, verdicts, metrics and collated input are not rollouts', () => {
  assert.deepEqual(PATHS.filter(isRolloutsFile), [
    '/w/run/rollouts.jsonl', '/w/run/tb_mini.jsonl', '/w/run/summary_metrics2.jsonl', '/w/run/failures.jsonl', '/w/run/items.jsonl',
  ]);
});

test('the when-clause evaluator: precedence, negation, parentheses, equality and regex match', () => {
  const ctx = { a: true, b: false, name: 'x_run_summary.json', n: 2 };
  assert.equal(evaluateWhen('a && !b', ctx), true);
  assert.equal(evaluateWhen('b || a && b', ctx), false);
  assert.equal(evaluateWhen('!(b || !a)', ctx), true);
  assert.equal(evaluateWhen('n == 2 && n != 3', ctx), true);
  assert.equal(evaluateWhen('name =~ /_run_summary\\.json$/', ctx), true);
  assert.equal(evaluateWhen('name =~ /^RUN/i', ctx), false);
  assert.equal(evaluateWhen('missing', ctx), false);
});

test('an untrusted workspace cannot set where runs are looked for: include, exclude, maxFolders and the read limit are restricted settings', () => {
  const m = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
    capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations?: string[] } };
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  const restricted = m.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
  assert.equal(m.capabilities.untrustedWorkspaces.supported, 'limited');
  for (const key of ['harborRuns.include', 'harborRuns.exclude', 'harborRuns.maxFolders', 'harborRuns.maxFileSizeMB']) {
    assert.ok(restricted.includes(key), `${key} is restricted`);
    assert.ok(key in m.contributes.configuration.properties, `${key} is a contributed setting`);
  }
});
