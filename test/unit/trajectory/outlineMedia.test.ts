// The trajectory editor's first screen and media, piece by piece: each row flag of a step, the rows from / limit and
// which rows start a continuation file, the header's final metrics and capped problems; which media paths a step may
// load (the folder's edge, URLs, empty and NUL paths, long paths cut in the reason, links resolved in and out, steps
// of a continuation file, parts of calls' results and of the shared output, by key).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { PartView, ResultView, StepView, TrajectoryView } from '../../../src/core/trajectory';
import { headerOf, MAX_PROBLEMS_SENT, ROW, rowOf, rowsOf } from '../../../src/core/trajectory/outline';
import { stepMedia } from '../../../src/core/trajectory/media';

function step(index: number, o: Partial<StepView> = {}): StepView {
  return {
    index, file: 0, pointer: `/steps/${index}`, stepId: index + 1, source: 'agent', timestamp: null, durationMs: null,
    modelName: null, reasoningEffort: null, message: [], reasoning: null, toolCalls: [], sharedResults: [], metrics: null,
    llmCallCount: null, copied: false, contextBoundary: null, logprobs: null, hasTokenIds: false, extra: null, summary: `s${index}`, ...o,
  };
}
function view(o: Partial<TrajectoryView> = {}): TrajectoryView {
  const totals = { prompt_tokens: null, completion_tokens: null, cached_tokens: null, cost_usd: null };
  return {
    file: '/t/trajectory.json', pointer: '', schemaVersion: 'ATIF-v1.7', unreadable: null, notAtif: null, taskLevel: false,
    agent: { name: 'a', version: null, model: null, toolDefinitions: 0 }, sessionId: null, trajectoryId: null, notes: null,
    finalMetrics: null, files: [], steps: [], toolCalls: 0, paired: 0, totals, totalsWithSubagents: totals,
    disagreements: [], subagents: [], elapsedMs: null, problems: [], ...o,
  };
}
const result = (parts: PartView[], subagents: number[] = []): ResultView => ({ index: 0, sourceCallId: null, parts, extra: null, subagents });
const img = (path: string): PartView => ({ kind: 'image', mediaType: 'image/png', path });
const call = (results: ResultView[]) => ({ id: 'c', name: 'bash', args: '{}', extra: null, results });

test('row flags: one bit per thing a step has, none for a plain step', () => {
  assert.equal(rowOf(step(0), false).flags, 0);
  assert.equal(rowOf(step(0, { copied: true }), false).flags, ROW.copied);
  assert.equal(rowOf(step(0, { contextBoundary: { type: 'summary', boundary: 'start' } as StepView['contextBoundary'] }), false).flags, ROW.boundary);
  assert.equal(rowOf(step(0, { toolCalls: [call([result([])])] }), false).flags, ROW.calls);
  assert.equal(rowOf(step(0, { toolCalls: [call([result([]), result([], [0])])] }), false).flags, ROW.calls | ROW.subagent);
  assert.equal(rowOf(step(0, { sharedResults: [result([], [1])] }), false).flags, ROW.subagent);
  assert.equal(rowOf(step(0, { logprobs: [-0.1] as unknown as StepView['logprobs'] }), false).flags, ROW.logprobs);
  assert.equal(rowOf(step(0, { llmCallCount: 0 }), false).flags, ROW.noModelCall);
  assert.equal(rowOf(step(0, { llmCallCount: 2 }), false).flags, 0);
  assert.equal(rowOf(step(0), true).flags, ROW.fileStart);
  assert.equal(rowOf(step(0, { reasoning: 'why' }), false).flags, ROW.reasoning);
  assert.equal(rowOf(step(0, { reasoning: '' }), false).flags, 0);
  assert.equal(rowOf(step(0, { message: [{ kind: 'text', text: 'x' }, img('a.png')] }), false).flags, ROW.media);
  assert.equal(rowOf(step(0, { message: [{ kind: 'text', text: 'x' }] }), false).flags, 0);
  assert.equal(rowOf(step(0, { message: [{ kind: 'unsupported', type: 'video' }] }), false).flags, ROW.media);
  assert.deepEqual(rowOf(step(4, { metrics: { prompt_tokens: 1, completion_tokens: 7, cached_tokens: null, reasoning_tokens: null, cost_usd: null, extra: null }, durationMs: 5, timestamp: 't' }), false),
    { i: 4, stepId: 5, source: 'agent', summary: 's4', timestamp: 't', durationMs: 5, completionTokens: 7, flags: 0 });
});

test('rows from and at most limit; a continuation file\'s first step is marked, the first file\'s is not', () => {
  const file = (firstStep: number) => ({ path: `/t/f${firstStep}.json`, firstStep, steps: 2, foldedCopies: 0, schemaVersion: null, finalMetrics: null });
  const v = view({ steps: [0, 1, 2, 3, 4].map((i) => step(i)), files: [file(0), file(2), file(4)] });
  assert.deepEqual(rowsOf(v).map((r) => [r.i, r.flags]), [[0, 0], [1, 0], [2, ROW.fileStart], [3, 0], [4, ROW.fileStart]]);
  assert.deepEqual(rowsOf(v, 1, 2).map((r) => r.i), [1, 2]);
  assert.deepEqual(rowsOf(v, 3).map((r) => r.i), [3, 4]);
});

test('header: final metrics as indented JSON (a note when they cannot be printed), problems capped with the rest counted', () => {
  assert.equal(headerOf(view()).finalMetrics, null);
  assert.equal(headerOf(view({ finalMetrics: { total_steps: 3 } })).finalMetrics, '{\n  "total_steps": 3\n}');
  const cyclic: Record<string, unknown> = {};
  cyclic.me = cyclic;
  assert.equal(headerOf(view({ finalMetrics: cyclic })).finalMetrics, '(cannot be shown)');
  const problems = Array.from({ length: MAX_PROBLEMS_SENT + 3 }, (_, i) => ({ file: '/t', pointer: `/${i}`, severity: 'warning' as const, message: `p${i}` }));
  const h = headerOf(view({ problems }));
  assert.equal(h.problems.length, MAX_PROBLEMS_SENT);
  assert.equal(h.problems[MAX_PROBLEMS_SENT - 1].message, `p${MAX_PROBLEMS_SENT - 1}`);
  assert.equal(h.moreProblems, 3);
  assert.equal(headerOf(view({ problems: problems.slice(0, 2) })).moreProblems, 0);
});

test('media: the folder\'s edge, URLs, unusable and long paths, links, continuation files, every part by key', () => {
  const root = '/t';
  const one = (path: string, o: { real?: (p: string) => string | null; root?: string; v?: TrajectoryView; s?: StepView } = {}) => {
    const s = o.s ?? step(0, { message: [img(path)] });
    return stepMedia(o.v ?? view({ steps: [s] }), s, o.root ?? root, o.real);
  };
  assert.deepEqual(one('a.png'), { media: { m0: '/t/a.png' }, refused: {} });
  assert.deepEqual(one('a.png', { root: '/t/' }), { media: { m0: '/t/a.png' }, refused: {} });
  // A sibling folder whose name starts with the root's is outside it.
  assert.deepEqual(one('/tx/a.png'), { media: { m0: null }, refused: { m0: '/tx/a.png is outside the trajectory\'s folder: refused' } });
  assert.deepEqual(one(''), { media: { m0: null }, refused: { m0: 'no usable path' } });
  assert.deepEqual(one('a\0.png'), { media: { m0: null }, refused: { m0: 'no usable path' } });
  assert.equal(one('data:image/png;base64,AAAA').refused.m0, 'a URL: only files inside the trajectory\'s folder are shown');
  // A colon later in a relative path is not a URL scheme.
  assert.deepEqual(one('img/x:1.png').media, { m0: '/t/img/x:1.png' });
  const long = `../${'d'.repeat(250)}.png`;
  assert.equal(one(long).refused.m0, `${long.slice(0, 199)}… is outside the trajectory's folder: refused`);
  const exact = `../${'e'.repeat(197)}`;
  assert.equal(exact.length, 200);
  assert.equal(one(exact).refused.m0, `${exact} is outside the trajectory's folder: refused`);
  // Links: a file that does not exist, a link out of the folder, a root that is itself a link (both resolved).
  const real = (map: Record<string, string | null>) => (p: string) => (p in map ? map[p] : p);
  assert.equal(one('gone.png', { real: real({ '/t/gone.png': null }) }).refused.m0, 'gone.png does not exist');
  assert.equal(one('out.png', { real: real({ '/t/out.png': '/etc/passwd' }) }).refused.m0, 'out.png is a link to a file outside the trajectory\'s folder: refused');
  assert.deepEqual(one('in.png', { real: real({ '/t': '/data/t', '/t/in.png': '/data/t/in.png' }) }), { media: { m0: '/t/in.png' }, refused: {} });
  assert.deepEqual(one('in.png', { real: real({ '/t': null, '/t/in.png': '/t/x/in.png' }) }), { media: { m0: '/t/in.png' }, refused: {} });
  // A step of a continuation file resolves against that file's folder.
  const cont = step(0, { file: 1, message: [img('a.png')] });
  const files = [{ path: '/t/trajectory.json', firstStep: 0, steps: 0, foldedCopies: 0, schemaVersion: null, finalMetrics: null },
    { path: '/t/more/cont.json', firstStep: 0, steps: 1, foldedCopies: 0, schemaVersion: null, finalMetrics: null }];
  assert.deepEqual(one('', { s: cont, v: view({ files, steps: [cont] }) }).media, { m0: '/t/more/a.png' });
  const lost = step(0, { file: 5, message: [img('b.png')] });
  assert.deepEqual(one('', { s: lost, v: view({ file: '/t/sub/trajectory.json', steps: [lost] }) }).media, { m0: '/t/sub/b.png' });
  // Every image or audio part by key: message, each call's results, the shared results; text parts are not media.
  const audio: PartView = { kind: 'audio', mediaType: 'audio/wav', path: 'x.wav' };
  const all = step(0, {
    message: [{ kind: 'text', text: 'hi' }, audio],
    toolCalls: [call([result([img('r00.png')]), result([{ kind: 'text', text: 't' }, img('r01.png')])]), call([result([img('r10.png')])])],
    sharedResults: [result([]), result([audio, img('s1.png')])],
  });
  assert.deepEqual(stepMedia(view({ steps: [all] }), all, root).media, {
    m1: '/t/x.wav', 'r0.0.0': '/t/r00.png', 'r0.1.1': '/t/r01.png', 'r1.0.0': '/t/r10.png', 's1.0': '/t/x.wav', 's1.1': '/t/s1.png',
  });
});
