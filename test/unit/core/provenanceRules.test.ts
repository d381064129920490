// The reward provenance rules of a Harbor verifier folder, called directly: which reward reward.json gives (Harbor's
// rule: the "reward" key, else the only key), which reward.txt gives (one float, as the verifier reads it), when the
// two disagree, when a reward file is older than the verifier's start (past the clock skew allowed), and the facts
// taken from a batched read (what is compared only when both files are there, times only with a start).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MTIME_SKEW_MS, NOT_READ, primaryOfRewardJson, provenanceFindings, provenanceFromFiles, valueOfRewardTxt,
} from '../../../src/core/readers/harbor/provenance';

test('primaryOfRewardJson: the "reward" key, else the only key; nothing else is a reward', () => {
  assert.equal(primaryOfRewardJson({ reward: 0.5, other: 1 }), 0.5);
  assert.equal(primaryOfRewardJson({ score: 0.25 }), 0.25);
  assert.equal(primaryOfRewardJson({ a: 1, b: 2 }), null, 'two keys, neither "reward"');
  assert.equal(primaryOfRewardJson({ reward: 'high', other: 1 }), null, '"reward" wins even when it is not a number');
  assert.equal(primaryOfRewardJson({ reward: null }), null);
  assert.equal(primaryOfRewardJson({ only: Number.POSITIVE_INFINITY }), null);
  assert.equal(primaryOfRewardJson({}), null);
  for (const v of [null, undefined, 1, 'x', [0.5], [{ reward: 1 }]]) assert.equal(primaryOfRewardJson(v), null, JSON.stringify(v));
});

test('valueOfRewardTxt: one float, spaces and a newline around it allowed', () => {
  const cases: [string, number | null][] = [
    ['1', 1], ['0\n', 0], ['  0.75 \n', 0.75], ['1.', 1], ['.5', 0.5], ['+1e-3', 0.001], ['-2E2', -200],
    ['10.5', 10.5], ['.25', 0.25], ['1e10', 1e10],
    ['', null], ['1.0.0', null], ['nan', null], ['inf', null], ['0x1', null], ['1 2', null], ['1e999', null], ['reward: 1', null],
  ];
  for (const [text, want] of cases) assert.equal(valueOfRewardTxt(text), want, JSON.stringify(text));
});

const J = '/t/verifier/reward.json';
const T = '/t/verifier/reward.txt';

test('provenanceFindings: reward files that disagree (or either says no number) are one warning at reward.json, word for word', () => {
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { reward: 1 } }, rewardTxt: { path: T, text: '1.0\n' } }), []);
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { reward: 1 } }, rewardTxt: { path: T, text: String(1 + 1e-10) } }), [], 'within 1e-9');
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { reward: 0 } }, rewardTxt: { path: T, text: '1e-9' } }), [], 'exactly 1e-9 apart');
  // "No number" on either side is a disagreement even against a 0 on the other.
  assert.equal(provenanceFindings({ rewardJson: { path: J, value: { reward: 0 } }, rewardTxt: { path: T, text: 'zero' } }).length, 1);
  assert.equal(provenanceFindings({ rewardJson: { path: J, value: { a: 0, b: 0 } }, rewardTxt: { path: T, text: '0' } }).length, 1);
  const msg = (j: string, t: string) => `reward.json says ${j} and reward.txt says ${t}: the verifier takes reward.json when both exist, so the reward is reward.json's (an agent that writes its own reward.json pre-empts the verifier)`;
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { reward: 1 } }, rewardTxt: { path: T, text: '0' } }),
    [{ code: 'reward-files-disagree', severity: 'warning', file: J, message: msg('1', '0') }]);
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { a: 1, b: 2 } }, rewardTxt: { path: T, text: '1' } }).map((p) => p.message), [msg('no number', '1')]);
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { reward: 1 } }, rewardTxt: { path: T, text: 'one' } }).map((p) => p.message), [msg('1', 'no number')]);
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { reward: 1 } } }), [], 'one file alone is nothing to compare');
  assert.deepEqual(provenanceFindings({ rewardTxt: { path: T, text: '0' } }), []);
});

test('provenanceFindings: a reward file older than the verifier by more than the skew is flagged, each file on its own', () => {
  const started = '2026-01-01T00:00:10.000Z';
  const start = Date.parse(started);
  const at = (ms: number) => ({ path: T, text: '', mtimeMs: ms });
  const codes = (mtimeMs: number) => provenanceFindings({ rewardTxt: at(mtimeMs), verifierStartedAt: started }).map((p) => p.code);
  assert.deepEqual(codes(start - MTIME_SKEW_MS - 1), ['reward-before-verifier']);
  assert.deepEqual(codes(start - MTIME_SKEW_MS), [], 'exactly at the skew: tolerated');
  assert.deepEqual(codes(start + 5000), []);
  const early = start - 3_600_000;
  assert.deepEqual(provenanceFindings({ rewardJson: { path: J, value: { reward: 1 }, mtimeMs: early }, rewardTxt: { path: T, text: '1', mtimeMs: start }, verifierStartedAt: started }), [{
    code: 'reward-before-verifier', severity: 'warning', file: J,
    message: `reward.json was last written at ${new Date(early).toISOString()}, before the verifier started (2026-01-01T00:00:10.000Z): the verifier did not write it (the agent may have)`,
  }]);
  assert.deepEqual(provenanceFindings({ rewardTxt: at(early), verifierStartedAt: started }).map((p) => [p.file, p.message.slice(0, 10)]), [[T, 'reward.txt']]);
  // No start recorded, or one that is not a date, or no time for the file: nothing to compare.
  assert.deepEqual(provenanceFindings({ rewardTxt: at(early), verifierStartedAt: null }), []);
  assert.deepEqual(provenanceFindings({ rewardTxt: at(early), verifierStartedAt: 'yesterday' }), []);
  assert.deepEqual(provenanceFindings({ rewardTxt: { path: T, text: '' }, verifierStartedAt: started }), []);
});

test('provenanceFindings: reward-details.json is an info finding; findings come in rule order', () => {
  const started = '2026-01-01T00:00:10.000Z';
  const all = provenanceFindings({
    rewardJson: { path: J, value: { reward: 1 }, mtimeMs: 0 }, rewardTxt: { path: T, text: '0', mtimeMs: 0 },
    verifierStartedAt: started, detailsPath: '/t/verifier/reward-details.json',
  });
  assert.deepEqual(all.map((p) => [p.code, p.severity, p.file]), [
    ['reward-files-disagree', 'warning', J], ['reward-before-verifier', 'warning', J], ['reward-before-verifier', 'warning', T],
    ['reward-details', 'info', '/t/verifier/reward-details.json'],
  ]);
  assert.equal(all[3].message, 'reward-details.json holds the per-criterion scores behind the reward');
  assert.deepEqual(provenanceFindings({ detailsPath: null }), []);
});

test('provenanceFromFiles: texts compared only when both files are there, times only with a start; reward-details noted', () => {
  const dir = '/t/verifier';
  const started = '2026-01-01T00:00:10.000Z';
  const old = Date.parse(started) - 60_000;
  const files: Record<string, { text?: string; mtimeMs?: number }> = {
    'reward.json': { text: '{"reward": 1}', mtimeMs: old }, 'reward.txt': { text: '0', mtimeMs: old },
  };
  const has = (names: string[]) => (n: string) => names.includes(n);
  const fileOf = (n: string) => files[n] ?? {};
  const codes = (names: string[], start: string | null, of = fileOf) => provenanceFromFiles(dir, has(names), start, of).map((p) => `${p.code}@${p.file.slice(dir.length + 1)}`);
  assert.deepEqual(codes(['reward.json', 'reward.txt'], null), ['reward-files-disagree@reward.json']);
  assert.deepEqual(codes(['reward.json', 'reward.txt'], started),
    ['reward-files-disagree@reward.json', 'reward-before-verifier@reward.json', 'reward-before-verifier@reward.txt']);
  // One file alone: its time is looked at with a start, its text never compared.
  assert.deepEqual(codes(['reward.txt'], started), ['reward-before-verifier@reward.txt']);
  assert.deepEqual(codes(['reward.json'], started), ['reward-before-verifier@reward.json']);
  assert.deepEqual(codes(['reward.txt'], null), []);
  // Both there, one not read (too big, or unreadable): that one is left out of the comparison and the times.
  assert.deepEqual(codes(['reward.json', 'reward.txt'], started, (n) => (n === 'reward.json' ? { mtimeMs: old } : fileOf(n))), ['reward-before-verifier@reward.txt']);
  // Both files saying the same reward: nothing (reward.json's text is parsed to compare it).
  assert.deepEqual(provenanceFromFiles(dir, has(['reward.json', 'reward.txt']), null, (n) => ({ text: n === 'reward.json' ? '{"reward": 1}' : '1' })), []);
  // reward.json that does not parse: "no number" against reward.txt's.
  const bad = provenanceFromFiles(dir, has(['reward.json', 'reward.txt']), null, (n) => (n === 'reward.json' ? { text: '{"reward": ' } : { text: '1' }));
  assert.match(bad[0].message, /^reward\.json says no number and reward\.txt says 1:/);
  // A folder that is not listed as having a file is never asked about.
  const asked: string[] = [];
  provenanceFromFiles(dir, has(['reward.txt']), null, (n) => { asked.push(n); return {}; });
  assert.deepEqual(asked, []);
  assert.deepEqual(codes(['reward-details.json'], null), ['reward-details@reward-details.json']);
});

test('provenanceFindings: the reward file the verifier reads against result.json\'s verifier_result.rewards', () => {
  const vs = (f: Parameters<typeof provenanceFindings>[0]) => provenanceFindings(f).filter((p) => p.code === 'reward-file-vs-result');
  // reward.txt alone: {"reward": its number}.
  assert.deepEqual(vs({ rewardTxt: { path: T, text: '1\n' }, recorded: { reward: 1 } }), []);
  assert.deepEqual(vs({ rewardTxt: { path: T, text: '0' }, recorded: { reward: 1 } }), [{
    code: 'reward-file-vs-result', severity: 'warning', file: T,
    message: 'reward.txt says 0 but result.json\'s verifier_result.rewards says 1: the reward on record is not the verifier\'s file\'s (one of them was changed after the verifier ran, or copied from another trial); the tree and pass@k use result.json\'s',
  }]);
  assert.equal(vs({ rewardTxt: { path: T, text: 'zero' }, recorded: { reward: 0 } }).length, 1, 'no number: not the recorded 0');
  assert.equal(vs({ rewardTxt: { path: T, text: '1' }, recorded: { reward: 1, style: 0.5 } }).length, 1, 'a key the file does not give');
  // reward.json (alone, or beside reward.txt: the verifier reads it first): every key compared.
  assert.deepEqual(vs({ rewardJson: { path: J, value: { reward: 1, style: 0.5 } }, recorded: { reward: 1, style: 0.5 + 1e-10 } }), []);
  const j = vs({ rewardJson: { path: J, value: { reward: 1, style: 0.5 } }, rewardTxt: { path: T, text: '1' }, recorded: { reward: 1, style: 0.25 } });
  const said = (m: string | undefined) => m?.split(': the reward on record')[0];
  assert.deepEqual(j.map((p) => [p.file, said(p.message)]), [[J, 'reward.json says {"reward":1,"style":0.5} but result.json\'s verifier_result.rewards says {"reward":1,"style":0.25}']]);
 assert.equal(said(vs({ rewardJson: { path: J, value: [1] }, recorded: { reward: 1 } })[0]?.message), 'reward.json says no rewards object but result.json\'s verifier_result.rewards says 1');
  // Nothing recorded, nothing read, or reward.json there but not read: nothing compared.
  assert.deepEqual(vs({ rewardTxt: { path: T, text: '0' }, recorded: null }), []);
  assert.deepEqual(vs({ rewardTxt: { path: T, text: '0' }, recorded: {} }), []);
  assert.deepEqual(vs({ rewardTxt: { path: T }, recorded: { reward: 1 } }), []);
  assert.deepEqual(vs({ rewardJson: { path: J, value: NOT_READ }, rewardTxt: { path: T, text: '0' }, recorded: { reward: 1 } }), []);
});

test('provenanceFromFiles: with rewards recorded, the file the verifier reads is compared whatever else is known', () => {
  const dir = '/t/verifier';
  const has = (names: string[]) => (n: string) => names.includes(n);
  const texts: Record<string, string> = { 'reward.json': '{"reward": 0}', 'reward.txt': '0' };
  const codes = (names: string[], recorded: Record<string, number> | null) =>
    provenanceFromFiles(dir, has(names), null, (n) => ({ text: texts[n] }), recorded).map((p) => `${p.code}@${p.file.slice(dir.length + 1)}`);
  assert.deepEqual(codes(['reward.txt'], { reward: 1 }), ['reward-file-vs-result@reward.txt']);
  assert.deepEqual(codes(['reward.json'], { reward: 1 }), ['reward-file-vs-result@reward.json']);
  assert.deepEqual(codes(['reward.txt'], { reward: 0 }), []);
  assert.deepEqual(codes(['reward.txt'], null), []);
  assert.deepEqual(codes([], { reward: 1 }), [], 'no reward file: said elsewhere (missing evidence)');
});
