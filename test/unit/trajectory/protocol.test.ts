// The trajectory editor's messages: what the host sends (built from the view model) parses on the webview side, what
// the webview may send is by index only, media stay inside the trajectory's folder, deep links round-trip.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { outlineOf, ROW } from '../../../src/core/trajectory';
import { stepMedia } from '../../../src/core/trajectory/media';
import { parseTrajectoryHostMessage, parseTrajectoryWebviewMessage } from '../../../src/protocol/trajectory';
import { formatDeepLink, parseDeepLink } from '../../../src/views/deepLink';
import { continuedTrajectory, featureTrajectory, subagentTrajectory, xssTrajectory } from '../../../scripts/sample-runs/atifFeatures';
import { viewOf } from './helpers';

test('init and step messages built from the view model parse on the webview side', async () => {
  for (const files of [continuedTrajectory().files, subagentTrajectory().files, featureTrajectory(), xssTrajectory()]) {
    const v = await viewOf(files);
    const { header, rows } = outlineOf(v);
    const init = parseTrajectoryHostMessage({ type: 'init', header, rows, attempt: null, trail: [], focus: null, loading: { steps: rows.length, bytesRead: 10, bytesTotal: 20 }, more: 0, view: null });
    assert.ok(init.ok, init.ok ? '' : init.error);
    const restored = parseTrajectoryHostMessage({ type: 'init', header, rows, attempt: null, trail: [], focus: null, loading: null, more: 40, view: { selected: 2, query: 'note', expandAll: true, raw: false } });
    assert.ok(restored.ok, restored.ok ? '' : restored.error);
    for (const m of [{ type: 'rows', from: 1, rows: rows.slice(1), loading: null, more: 0 }, { type: 'header', header, loading: null }]) {
      const r = parseTrajectoryHostMessage(m);
      assert.ok(r.ok, r.ok ? '' : r.error);
    }
    for (const step of v.steps) {
      const r = parseTrajectoryHostMessage({ type: 'step', step, media: {}, refused: {}, tokens: null });
      assert.ok(r.ok, r.ok ? '' : r.error);
    }
  }
  assert.equal(parseTrajectoryHostMessage({ type: 'init', header: {}, rows: [] }).ok, false);
  assert.equal(parseTrajectoryHostMessage({ type: 'rows', from: -1, rows: [], loading: null, more: 0 }).ok, false);
});

test('outline rows carry the flags the list draws (continuation start, copied, boundary, subagent, logprobs)', async () => {
  const cont = outlineOf(await viewOf(continuedTrajectory().files)).rows;
  assert.ok(cont[3].flags & ROW.fileStart);
  assert.ok(cont.some((r) => r.flags & ROW.copied));
  const feat = outlineOf(await viewOf(featureTrajectory())).rows;
  assert.ok(feat[2].flags & ROW.boundary);
  assert.ok(feat[1].flags & ROW.logprobs);
  assert.ok(feat[3].flags & ROW.noModelCall);
  assert.ok(feat[0].flags & ROW.media);
  const subs = outlineOf(await viewOf(subagentTrajectory().files)).rows;
  assert.ok(subs[2].flags & ROW.subagent);
});

test('webview messages: by index only; paths, unknown types and oversized values are rejected', () => {
  assert.ok(parseTrajectoryWebviewMessage({ type: 'getStep', index: 3 }).ok);
  assert.ok(parseTrajectoryWebviewMessage({ type: 'viewState', state: { selected: null, query: '', expandAll: null, raw: true } }).ok);
  for (const bad of [{ type: 'getStep', index: -1 }, { type: 'getStep', index: '../../etc/passwd' }, { type: 'readFile', path: '/etc/passwd' },
    { type: 'search', query: 'x'.repeat(10_001) }, { type: 'viewState', state: { selected: -1, query: '', expandAll: null, raw: false } },
    { type: 'viewState', state: { selected: 1, query: 'x'.repeat(10_001), expandAll: true, raw: false } }, { type: 'viewState', state: { selected: 1 } }, { type: 'openLink', id: 'anything' }, { type: 'openSubagent', index: 1.5 }, null, 'ready']) {
    assert.equal(parseTrajectoryWebviewMessage(bad).ok, false, JSON.stringify(bad)?.slice(0, 80));
  }
});

test('media: relative paths resolve inside the trajectory folder; URLs, absolute paths outside and escapes are not loaded', async () => {
  const dir = '/runs/job/trial/agent';
  const v = await viewOf({
    ...featureTrajectory(),
    'trajectory.json': { schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'user', message: [
      { type: 'image', source: { media_type: 'image/png', path: 'images/shot.png' } },
      { type: 'image', source: { media_type: 'image/png', path: '../../../../etc/passwd' } },
      { type: 'image', source: { media_type: 'image/png', path: 'https://example.com/x.png' } },
      { type: 'image', source: { media_type: 'image/png', path: `${dir}/images/abs.png` } },
      { type: 'image', source: { media_type: 'image/png', path: '/etc/shadow' } },
      { type: 'image', source: { media_type: 'image/png', path: 'javascript:alert(1)' } },
    ] }] },
  }, dir);
  const { media, refused } = stepMedia(v, v.steps[0], dir);
  assert.deepEqual(media, { m0: `${dir}/images/shot.png`, m1: null, m2: null, m3: `${dir}/images/abs.png`, m4: null, m5: null });
  assert.deepEqual(Object.keys(refused).sort(), ['m1', 'm2', 'm4', 'm5']);
  assert.match(refused.m1, /outside the trajectory's folder: refused/);
  assert.match(refused.m2, /a URL/);
});

test('deep links round-trip and reject what is not ours', () => {
  const links = [
    { kind: 'run', run: 'nemo-gym:/runs/a b/x_run_summary.json' },
    { kind: 'task', run: 'r', task: 't&=?' },
    { kind: 'attempt', run: 'r', task: 't', attempt: 't#2' },
    { kind: 'trajectory', file: '/w/jobs/j/t/agent/trajectory.json', step: 41 },
    { kind: 'trajectory', file: '/w/x.json', step: null },
  ] as const;
  for (const l of links) {
    const u = new URL(formatDeepLink(l));
    assert.equal(u.host, 'harbor-runs.harbor-runs');
    assert.deepEqual(parseDeepLink(u.pathname, u.search.slice(1)), l);
  }
  assert.match(formatDeepLink(links[3]), /step=42$/);
  for (const [p, q] of [['/trajectory', 'file=relative.json'], ['/trajectory', 'file=/etc/passwd'], ['/nope', 'run=x'], ['/attempt', 'run=r&task=t'], ['/trajectory', 'file=/a.json&step=-3']]) {
    const r = parseDeepLink(p, q);
    if (p === '/trajectory' && q.includes('step=-3')) assert.deepEqual(r, { kind: 'trajectory', file: '/a.json', step: null });
    else assert.equal(r, null, `${p}?${q}`);
  }
});
