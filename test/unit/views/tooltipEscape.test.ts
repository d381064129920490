// Item 8 of docs/untrusted-runs.md for the Runs tree: a run that writes Markdown, links, `command:` URIs, HTML,
// backtick runs, control or bidi characters in an id, exception or message cannot make a tooltip render anything but
// its text. The checks read the Markdown as CommonMark does: outside code spans every ASCII punctuation character is
// escaped; a code span closes only at a backtick run of its own fence's length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attempt, Run } from '../../../src/core/model';
import { makeRunNode, taskNode, type TreeNode } from '../../../src/views/tree/nodes';
import { code, escapeMd, tooltipOf } from '../../../src/views/tree/tooltips';

const HOSTILE = [
  '[click](command:workbench.action.terminal.new)',
  '<command:harborRuns.writeRunSummary>',
  'https://example.invalid/x www.example.invalid a@b.invalid',
  '``](command:x)`` ```` `',
  '<img src=x onerror=alert(1)><a href="command:x">a</a>',
  '![i](https://example.invalid/i.png) **b** _i_ ~~s~~ $(zap)',
  'line\n# heading\n\n- item\n> quote\n| a | b |\n---\n===',
  'esc \u001b[2J bidi \u202e evil \u2066',
];

/** The Markdown with every code span removed, checked to close properly (throws when a span never closes). */
function outsideCode(md: string): string {
  let out = '';
  let i = 0;
  while (i < md.length) {
    if (md[i] === '\\') { out += md.slice(i, i + 2); i += 2; continue; }
    if (md[i] !== '`') { out += md[i++]; continue; }
    let n = 0;
    while (md[i + n] === '`') n++;
    const fence = '`'.repeat(n);
    let j = i + n;
    for (;;) {
      const k = md.indexOf(fence, j);
      assert.ok(k >= 0, `a code span opened at ${i} never closes`);
      if (md[k + n] !== '`' && md[k - 1] !== '`') { i = k + n; break; }
      j = k + 1;
      while (md[j] === '`') j++;
    }
  }
  return out;
}

/**
 * Punctuation that starts a link, image, autolink, HTML, code or entity, unescaped, outside code spans (our own markup
 * uses parentheses, colons and emphasis in fixed words, never these).
 */
function unescapedSyntax(text: string): string[] {
  const hits: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') { i++; continue; }
    if ('[]<>`&'.includes(text[i])) hits.push(`${text[i]} at ${i}: …${text.slice(Math.max(0, i - 15), i + 15)}…`);
  }
  return hits;
}

/** A run of one task and attempt, and its nodes: the run, the task, the attempt, a problem and an unvalidated reason. */
function runNodes(run: Run, a: Attempt): { t: TreeNode; nodes: TreeNode[] } {
  const runNode = makeRunNode(run);
  const t = taskNode(run, run.tasks[0], runNode);
  return { t, nodes: [
    runNode, t, { kind: 'attempt', id: 'a', run, task: run.tasks[0], attempt: a, parent: t },
    { kind: 'problem', id: 'p', run, problem: run.problems[0], parent: runNode },
    { kind: 'reason', id: 'r', run, reason: run.unvalidated[0], which: 'unvalidated', parent: runNode },
  ] };
}

test('escapeMd leaves no Markdown syntax, no control or bidi character; code() spans never break out', () => {
  for (const h of HOSTILE) {
    const md = escapeMd(h);
    assert.deepEqual(unescapedSyntax(md), [], h);
    assert.doesNotMatch(md, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const span = code(h);
    assert.equal(outsideCode(span), '', `code(${JSON.stringify(h)}) is one span: ${span}`);
    assert.doesNotMatch(span, /\n/);
  }
});

test('a tooltip quotes at most 2,000 characters of one text', () => {
  const md = escapeMd('x'.repeat(100_000));
  assert.ok(md.length < 2100, String(md.length));
  assert.match(md, /100000 characters/);
});

test('tooltips of a hostile run: its text renders as text (links, command: URIs, HTML and code fences escaped)', () => {
  const h = HOSTILE.join(' ');
  const a: Attempt = {
    id: `a-${h}`, index: 0, label: `#1 ${h}`, outcome: 'agent-error', reward: 0, evidence: [], missing: [`/r/${h}`],
    exception: { type: `Err\`\`${h}`, message: h, where: h }, failure: { kind: h, reason: h }, dir: `/r/${h}`,
    health: { verdict: h, checks: [h] }, rewards: { [h]: 1, b: 0 },
  };
  const run: Run = {
    id: `run-${h}`, kind: 'harbor-job', root: `/r/${h}`, anchor: '/r', label: h, identity: { [h]: h }, state: 'complete',
    files: [], problems: [{ file: `/r/${h}`, severity: 'warning', code: 'x', message: h }], unvalidated: [{ taskId: h, reason: h }], skipped: [],
    tasks: [{ id: h, label: h, attempts: [a] }],
  };
  const nodes: TreeNode[] = [
    ...runNodes(run, a).nodes,
    { kind: 'failed-test', id: 'f', name: h, message: h, file: `/r/${h}` },
    { kind: 'missing-path', id: 'm', run, attempt: a, path: `/r/${h}` },
  ];
  for (const n of nodes) {
    const md = tooltipOf(n) ?? '';
    assert.ok(md.length > 0, n.kind);
    const text = outsideCode(md);
    assert.deepEqual(unescapedSyntax(text), [], `${n.kind}: ${md.slice(0, 300)}`);
    // With every escaped character dropped, nothing of a link, autolink or tag is left.
    assert.doesNotMatch(text.replace(/\\[\s\S]/g, ''), /command:|https?:\/\/|www\.|<img|<a /, n.kind);
  }
});

test('tree labels and descriptions of a hostile run: control and bidi characters shown as escapes, the rest as written', async () => {
  const { describe } = await import('../../../src/views/tree/describe');
  const h = 'report\u202etxt.exe \u001b]0;title\u0007 \u2066x\u2069 ok\ttab';
  const a: Attempt = { id: 'a', index: 0, label: `#1 ${h}`, outcome: 'failed', reward: 0, evidence: [], missing: [] };
  const run: Run = {
    id: 'run', kind: 'harbor-job', root: '/r', anchor: '/r', label: h, identity: {}, state: 'complete',
    files: [], problems: [{ file: '/r/x', severity: 'warning', code: 'x', message: h }], unvalidated: [{ taskId: h, reason: h }], skipped: [],
    tasks: [{ id: h, label: h, attempts: [a] }],
  };
  const { t, nodes } = runNodes(run, a);
  for (const n of nodes) {
    const spec = describe(n);
    for (const s of [spec.label, spec.description ?? '']) {
      assert.doesNotMatch(s, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, `${n.kind}: ${JSON.stringify(s)}`);
    }
  }
  assert.equal(describe(t).label, 'report\\u202etxt.exe \\u001b]0;title\\u0007 \\u2066x\\u2069 ok\ttab');
  // plain text is handed on as it is (the same object)
  const plain: Run = { ...run, label: 'plain', tasks: [{ id: 'plain-task', label: 'plain-task', attempts: [a] }] };
  const pn = makeRunNode(plain);
  assert.equal(describe(taskNode(plain, plain.tasks[0], pn)).label, 'plain-task');
});
