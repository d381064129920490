// The writer's two small parsers: the byte-level key picker (against JSON.parse) and the run_config.yaml reader.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { KeyPicker } from '../../../src/core/summary/scan';
import { parseSimpleYaml, runConfigIdentity } from '../../../src/core/summary/runConfig';

const enc = new TextEncoder();

test('KeyPicker takes exactly what JSON.parse would, for any object', () => {
  const picker = new KeyPicker(['a', 'reward', 'nested', 'é']);
  fc.assert(fc.property(fc.dictionary(fc.oneof(fc.constantFrom('a', 'reward', 'nested', 'x', 'é', 'a\\"'), fc.string()), fc.jsonValue()), (obj) => {
    for (const text of [JSON.stringify(obj), JSON.stringify(obj, null, 1)]) {
      const want: Record<string, unknown> = {};
      const parsed = JSON.parse(text) as Record<string, unknown>;
      for (const k of ['a', 'reward', 'nested', 'é']) if (k in parsed) want[k] = parsed[k];
      assert.deepEqual(picker.pick(enc.encode(text)), want);
    }
  }), { numRuns: 300 });
});

test('KeyPicker with reuse: a run of rows picks what JSON.parse takes, the same value kept only for the same bytes', () => {
  const keys = ['a', 'b', 'n'];
  const picker = new KeyPicker(keys, { n: new KeyPicker(['m'], {}, [], true) }, [], true);
  // Small alphabets so that values often repeat, differ in one byte, or pass the 256 bytes a picker remembers.
  const small = fc.oneof(fc.constantFrom(0, 1, 10, 1.5, -0, true, false, null, 'x', 'y', 'xy', 'é', '\\"', { t: 'x' }, { t: 'y' }, [1], [2]),
    fc.constantFrom(255, 256, 257, 300).chain((n) => fc.constantFrom('a', 'b').map((c) => c.repeat(n - 2))));
  const row = fc.record({ a: small, b: small, n: fc.oneof(fc.record({ m: small, z: small }, { requiredKeys: [] }), small), z: small },
    { requiredKeys: [] });
  fc.assert(fc.property(fc.array(row, { minLength: 2, maxLength: 12 }), (rows) => {
    const picked = rows.map((r) => picker.pick(enc.encode(JSON.stringify(r))));
    rows.forEach((r, i) => {
      const parsed = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
      const want: Record<string, unknown> = {};
      for (const k of keys) {
        if (!(k in parsed)) continue;
        const v = parsed[k];
        want[k] = k === 'n' && v && typeof v === 'object' && !Array.isArray(v)
          ? ('m' in v ? { m: (v as Record<string, unknown>).m } : {}) : v;
      }
      assert.deepEqual(picked[i], want);
    });
  }), { numRuns: 300 });
  // The same bytes: the same value; other bytes (one byte apart, at the start): a new one.
  const one = picker.pick(enc.encode('{"a": {"t": "task-10"}}')).a;
  assert.equal(picker.pick(enc.encode('{"a": {"t": "task-10"}}')).a, one);
  assert.deepEqual(picker.pick(enc.encode('{"a": {"t": "task-11"}}')).a, { t: 'task-11' });
  assert.deepEqual(picker.pick(enc.encode('{"a": {"s": "task-11"}}')).a, { s: 'task-11' });
});

test('KeyPicker: nested picks, escapes in skipped strings, and errors on what is not one object', () => {
  const p = new KeyPicker(['k', 'rcp'], { rcp: new KeyPicker(['metadata']) });
  const line = '{"big": "a \\"quoted\\" \\\\ } ] { [ string\\\\", "rcp": {"input": [{"c": "}}"}], "metadata": {"t": "1"}}, "k": 2}';
  assert.deepEqual(p.pick(enc.encode(line)), { rcp: { metadata: { t: '1' } }, k: 2 });
  for (const bad of ['', '[1]', '{"k": 1', '{"k": 1} x', '{"k" 1}', '{"k": "unterminated}', 'null',
    // wanted values JSON.parse rejects, whatever fast path reads them
    '{"k": nul}', '{"k": 01}', '{"k": 1.}', '{"k": truex}', '{"k": "a\u0001b"}', '{"k": "tab\there"}', '{"k": 9007199254740993x}']) {
    assert.throws(() => p.pick(enc.encode(bad)), SyntaxError, bad);
  }
});

test('the run_config.yaml reader: mappings, lists of mappings, scalars, comments; never throws', () => {
  const doc = parseSimpleYaml([
    '# generated', 'top: "quoted: value"  # comment', 'server:', '  resources_servers:', '    harbor:',
    "      artifacts_dir: '/r/verifier'", '      tasksets:', '        ts:', '          folder: /d/ts',
    '          tasks:', '            t1: abc', '            t2: def', '      datasets:', '      - name: ts',
    '        jsonl_fpath: /r/tasks.jsonl', '      - name: other', '      empty: []', 'agent:', '  _inherit_from: my_agent',
    '  responses_api_agents:', '    my_agent: {}', 'num_repeats: 3', 'list:', '  - a', '  - b',
  ].join('\n'));
  assert.deepEqual(doc, {
    top: 'quoted: value',
    server: { resources_servers: { harbor: {
      artifacts_dir: '/r/verifier', tasksets: { ts: { folder: '/d/ts', tasks: { t1: 'abc', t2: 'def' } } },
      datasets: [{ name: 'ts', jsonl_fpath: '/r/tasks.jsonl' }, { name: 'other' }], empty: [],
    } } },
    agent: { _inherit_from: 'my_agent', responses_api_agents: { my_agent: {} } },
    num_repeats: '3',
    list: ['a', 'b'],
  });
  assert.deepEqual(runConfigIdentity(doc), {
    taskset: 'ts', resourcesServer: 'server', datasetFolder: '/d/ts', digests: { t1: 'abc', t2: 'def' },
    artifactsDir: '/r/verifier', rowsPath: '/r/tasks.jsonl', agent: 'my_agent', numRepeats: 3,
  });
  fc.assert(fc.property(fc.string(), (s) => { parseSimpleYaml(s); runConfigIdentity(parseSimpleYaml(s)); }), { numRuns: 300 });
});
