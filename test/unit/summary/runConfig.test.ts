// The run_config.yaml reader (the YAML subset a generated run config uses) and the identity taken from it, case by
// case: each expected value is what YAML says for that text (written by hand), and what the reader leaves out when the
// text is outside its subset. It never throws.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseSimpleYaml, runConfigIdentity } from '../../../src/core/summary/runConfig';

const y = (...lines: string[]) => parseSimpleYaml(lines.join('\n'));

test('run config scalars: null spellings, empty collections, quoted and plain strings, flow lists', () => {
  assert.deepEqual(y('a: ~', 'b: null', 'c: Null', 'd: NULL', 'e: nil', 'f: []', 'g: {}'),
    { a: null, b: null, c: null, d: null, e: 'nil', f: [], g: {} });
  assert.deepEqual(y('a: "x\\ty"', 'b: "bad \\q"', 'c: ""', 'd: "', 'e: "abc', 'f: abc"'),
    { a: 'x\ty', b: 'bad \\q', c: '', d: '"', e: '"abc', f: 'abc"' });
  assert.deepEqual(y("a: 'it''s'", "b: ''", "c: '", "d: 'abc", "e: abc'"), { a: "it's", b: '', c: "'", d: "'abc", e: "abc'" });
  assert.deepEqual(y('a: [x, "y z", ~, ]', 'b: [only', 'c: only]'), { a: ['x', 'y z'], b: '[only', c: 'only]' });
});

test('run config comments: after a space, not inside quotes or a word; whole-line comments anywhere', () => {
  assert.deepEqual(y('a: x #c', 'b: x# y', 'c: "x # y" # c', "d: 'x # y'", 'e: "it\'s # here"', '#f: 1', '   # g: 1'),
    { a: 'x', b: 'x# y', c: 'x # y', d: 'x # y', e: "it's # here" });
  // A comment line between the items of a list does not end the list.
  assert.deepEqual(y('l:', '  - a', '# note', '  - b'), { l: ['a', 'b'] });
});

test('run config keys: quoted keys, a colon without a space is not a key, keys read as text', () => {
  assert.deepEqual(y('"a: b": c', "'q': r", 'url: http://h:80/x', 'not a key', 'k:v', 'a"b: c', '~: n'),
    { 'a: b': 'c', q: 'r', url: 'http://h:80/x', 'a"b': 'c', null: 'n' });
  assert.deepEqual(y('l:', '  - k:v'), { l: ['k:v'] });
  assert.deepEqual(y("'a: b': c"), { 'a: b': 'c' });
});

test('run config blocks: nesting by indentation, a list at its key\'s indentation, empty values, tabs, blank lines, ---', () => {
  assert.deepEqual(y('---', 'a:', '  b: 1', '  c:', 'd: 2', 'e:'), { a: { b: '1', c: null }, d: '2', e: null });
  assert.deepEqual(y('datasets:', '- a', '- b', 'next: 1'), { datasets: ['a', 'b'], next: '1' });
  assert.deepEqual(y('x:', 'y: 1'), { x: null, y: '1' });
  assert.deepEqual(y('a:', '\tb: 1', 'c: 2'), { a: { b: '1' }, c: '2' });
  assert.deepEqual(y('a: 1', '   ', '', 'b: 2'), { a: '1', b: '2' });
  assert.deepEqual(y('---', '- a', '- b'), ['a', 'b']);
  assert.deepEqual(y('---   # document', '- a'), ['a']);
  // A block scalar (`|`, `>`) is not read, but what follows it still is.
  assert.equal((y('a: |', '  some text', 'b: 1') as Record<string, unknown>).b, '1');
  assert.equal((y('a: >', '  some text', 'b: 1') as Record<string, unknown>).b, '1');
  assert.equal(y(''), null);
  assert.equal(y('# only a comment', '---'), null);
});

test('run config lists: items that are mappings (keys aligned after the dash), bare dashes, nested lists', () => {
  assert.deepEqual(y('l:', '  - name: x', '    path: /p', '  - name: y'), { l: [{ name: 'x', path: '/p' }, { name: 'y' }] });
  assert.deepEqual(y('l:', '-   name: x', '    path: /p'), { l: [{ name: 'x', path: '/p' }] });
  assert.deepEqual(y('l:', '-   "a: b": c'), { l: [{ 'a: b': 'c' }] });
  assert.deepEqual(y('l:', '-  "a: b"', '-   spaced  '), { l: ['a: b', 'spaced'] });
  assert.deepEqual(y('l:', '-', '  name: x', '-', '- b', '-'), { l: [{ name: 'x' }, null, 'b', null] });
  assert.deepEqual(y('l:', '  -', '    - a', '    - b'), { l: [['a', 'b']] });
  // An item at another indentation ends the inner list; a less indented item after `key:` is not its value.
  assert.deepEqual(y('l:', '  - a', '  -', '    - x', '  - b'), { l: ['a', ['x'], 'b'] });
  assert.deepEqual(y('top:', '  a:', '- x'), { top: { a: null } });
});

test('run config reader: deeper nesting than the stack allows reads as nothing, without throwing', () => {
  const lines: string[] = [];
  for (let i = 0; i < 8000; i++) lines.push(`${' '.repeat(i)}k${i}:`);
  assert.equal(parseSimpleYaml(lines.join('\n')), null);
});

test('run config identity: the first server with a taskset, the first agent, the first dataset rows; odd shapes left out', () => {
  const doc = y(
    'scalar_instance: 3',
    'list_instance:', '  - a',
    'odd:', '  resources_servers:', '    bad: just text', '    listed:', '      - x',
    'first:', '  resources_servers:', '    s1:', '      tasksets: {}', '      artifacts_dir: /r/art',
    '      datasets:', '        - just-a-name', '        - jsonl_fpath: /r/rows.jsonl', '        - jsonl_fpath: /r/other.jsonl',
    'second:', '  resources_servers:', '    s2:', '      tasksets:', '        ts2:', '          folder:', '            nested: x',
    '          tasks:', '            t1: d1', '            t2: ~', '            t3:', '              deep: x',
    '      artifacts_dir: /r/late', '      datasets:', '        name: not-a-list',
    'third:', '  resources_servers:', '    s3:', '      tasksets:', '        ts3:', '          folder: /d/ts3',
    'no_agents:', '  _inherit_from: not_this_one',
    'agent_a:', '  _inherit_from: agent_a_base', '  responses_api_agents:', '    a: {}',
    'agent_b:', '  _inherit_from: agent_b_base', '  responses_api_agents:', '    b: {}',
    'num_repeats: 12',
  );
  assert.deepEqual(runConfigIdentity(doc), {
    taskset: 'ts2', resourcesServer: 'second', datasetFolder: undefined, digests: { t1: 'd1' },
    artifactsDir: '/r/art', rowsPath: '/r/rows.jsonl', agent: 'agent_a_base', numRepeats: 12,
  });
  // A taskset without a value, and no tasks: no folder, no digests.
  assert.deepEqual(runConfigIdentity(y('s:', '  resources_servers:', '    x:', '      tasksets:', '        ts:')),
    { taskset: 'ts', resourcesServer: 's', datasetFolder: undefined, artifactsDir: undefined });
  for (const nr of ['3x', 'x3', '', '-1', '1.5']) assert.equal(runConfigIdentity(y(`num_repeats: ${nr}`)).numRepeats, undefined, nr);
  assert.equal(runConfigIdentity(y('num_repeats: 7')).numRepeats, 7);
  assert.deepEqual(runConfigIdentity(y('- a', '- b')), {});
  // An agent instance is one that inherits (`_inherit_from`) and has responses_api_agents.
  assert.deepEqual(runConfigIdentity(y('a:', '  responses_api_agents:', '    x: {}')), {});
  // The top level must be a mapping: a list of instances is not a run config.
  assert.deepEqual(runConfigIdentity(y('- resources_servers:', '    x:', '      tasksets:', '        ts: {}')), {});
  // An empty tasksets mapping names no taskset (and so no resources server).
  assert.deepEqual(runConfigIdentity(y('s:', '  resources_servers:', '    x:', '      tasksets: {}')), { artifactsDir: undefined });
  assert.deepEqual(runConfigIdentity(null), {});
  assert.deepEqual(runConfigIdentity('text'), {});
});

test('run config identity: a taskset, tasks or agents written as plain text are no mapping and name nothing', () => {
  // `tasksets: mini` names no taskset (not its first character's index), so no resources server either.
  assert.deepEqual(runConfigIdentity(y('s:', '  resources_servers:', '    x:', '      tasksets: mini', '      artifacts_dir: /r/art')),
    { artifactsDir: '/r/art' });
  // `tasks: t1` lists no task: no digests.
  assert.deepEqual(runConfigIdentity(y('s:', '  resources_servers:', '    x:', '      tasksets:', '        ts:', '          folder: /d/ts',
    '          tasks: t1')), { taskset: 'ts', resourcesServer: 's', datasetFolder: '/d/ts', artifactsDir: undefined });
  // An instance whose responses_api_agents is text is no agent.
  assert.deepEqual(runConfigIdentity(y('a:', '  _inherit_from: agent_base', '  responses_api_agents: none')), {});
});
