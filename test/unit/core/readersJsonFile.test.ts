// The readers' JSON documents (src/core/readers/jsonFile.ts), called directly: where a parse error is (line and
// column, after a byte order mark too), what a parsed document says that JSON.parse would not (a BOM, bytes that are
// not UTF-8, a key given twice, a number beyond a double, nesting past the bound), a file that is missing, unreadable
// or too big, and schema issues turned into problems (at most `max`, a union's deepest branch).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { MAX_JSON_DEPTH } from '../../../src/core/jsonDepth';
import {
  issueProblems, jsonDocumentOf, lineColumnAt, locate, parseJsonDocument, parseJsonText, problemAt, readJsonDocument,
} from '../../../src/core/readers/jsonFile';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-jsonfile-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const node = new NodeFs();

test('lineColumnAt: 1-based, newlines counted up to the offset, the offset held inside the text', () => {
  const text = 'ab\ncd\n\nef';
  assert.deepEqual(lineColumnAt(text, 0), { line: 1, column: 1 });
  assert.deepEqual(lineColumnAt(text, 2), { line: 1, column: 3 });
  assert.deepEqual(lineColumnAt(text, 3), { line: 2, column: 1 });
  assert.deepEqual(lineColumnAt(text, 6), { line: 3, column: 1 });
  assert.deepEqual(lineColumnAt(text, 7), { line: 4, column: 1 });
  assert.deepEqual(lineColumnAt(text, 9), { line: 4, column: 3 });
  assert.deepEqual(lineColumnAt(text, 99), { line: 4, column: 3 });
  assert.deepEqual(lineColumnAt(text, -5), { line: 1, column: 1 });
  assert.deepEqual(lineColumnAt('\n', 1), { line: 2, column: 1 });
});

test('parseJsonText: the value; else the first error\'s offset (after a BOM too) and what went wrong', () => {
  assert.deepEqual(parseJsonText('{"a": [1, 2]}'), { value: { a: [1, 2] } });
  assert.deepEqual(parseJsonText('\ufeff{"a": 1}'), { value: { a: 1 } });
  const bad = parseJsonText('{"a": 1,\n "b": }');
  assert.equal(bad.value, undefined);
  assert.equal(bad.error?.offset, 15);
  assert.match(bad.error?.message ?? '', /^ValueExpected \(/);
  const bomBad = parseJsonText('\ufeff{"a": 1,\n "b": }');
  assert.equal(bomBad.error?.offset, 16, 'the offset is in the text as given, the BOM counted');
  const trailing = parseJsonText('[1, 2,]');
  assert.equal(trailing.error?.offset, 6, 'a trailing comma is an error (strict JSON)');
  const comment = parseJsonText('// note\n[1]');
  assert.equal(comment.error?.offset, 0, 'a comment is an error');
  const empty = parseJsonText('');
  assert.ok(empty.error);
  assert.equal(empty.error?.offset, 0);
});

// The error is always the lenient parser's (jsonc-parser, strict options): it finds one in every text JSON.parse
// refuses, so parseJsonText's fallback to the offset in JSON.parse's own message is not reached (docs/mutation-
// testing.md, jsonFile.ts's survivors). Each kind of text JSON allows nowhere: the error named, at its character.
test('parseJsonText: every kind of text JSON.parse refuses gets the lenient parser\'s error, at the offending character', () => {
  const cases: [string, string, number][] = [
    ['[1,\u00a02]', 'InvalidSymbol', 3], // whitespace JSON does not allow: no-break space,
    ['[1,\u000b2]', 'InvalidSymbol', 3], // vertical tab,
    ['[1,\u000c2]', 'InvalidSymbol', 3], // form feed,
    ['[1,\u20282]', 'InvalidSymbol', 3], // line separator,
    ['[1,\u30002]', 'InvalidSymbol', 3], // ideographic space,
    ['[1,\ufeff2]', 'InvalidSymbol', 3], // a BOM inside,
    ['\ufeff\ufeff[1]', 'InvalidSymbol', 1], // a second BOM (the first is dropped, counted in the offset)
    ['["a\u0001b"]', 'InvalidCharacter', 1], // a control character in a string
    ['[01]', 'CommaExpected', 2], ['[-]', 'InvalidSymbol', 1], ['[1.]', 'UnexpectedEndOfNumber', 1],
    ['[1e+]', 'UnexpectedEndOfNumber', 1], ['[.5]', 'InvalidSymbol', 1], ['[+1]', 'InvalidSymbol', 1],
    ['["\\x"]', 'InvalidEscapeCharacter', 1], ['["\\u12"]', 'InvalidUnicode', 1],
    ['[tru]', 'InvalidSymbol', 1], ['[NaN]', 'InvalidSymbol', 1], ["['a']", 'InvalidSymbol', 1],
    ['{a:1}', 'InvalidSymbol', 1], ['{"a":1,}', 'PropertyNameExpected', 7], ['[1 2]', 'CommaExpected', 3],
    ['[1]]', 'EndOfFileExpected', 3], ['/* c */1', 'InvalidCommentToken', 0], [' ', 'ValueExpected', 1],
  ];
  for (const [text, code, offset] of cases) {
    assert.throws(() => JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text), SyntaxError, JSON.stringify(text));
    const got = parseJsonText(text);
    assert.equal(got.value, undefined, JSON.stringify(text));
    assert.ok(got.error?.message.startsWith(`${code} (`), `${JSON.stringify(text)}: ${got.error?.message}`);
    assert.equal(got.error?.offset, offset, JSON.stringify(text));
  }
  // What both accept: a lone surrogate, a number past a double, -0.
  assert.deepEqual(parseJsonText('["\ud800", 1e999, -0]'), { value: ['\ud800', Infinity, -0] });
});

test('parseJsonDocument: a parse error\'s problem names the file, line and column; nesting past the bound is not parsed', () => {
  const bad = parseJsonDocument('/d/x.json', '{\n  "a": 1,\n  "b": oops\n}', 'trial result');
  assert.equal(bad.ok, false);
  assert.equal(bad.value, undefined);
  assert.equal(bad.problems.length, 1);
  const [p] = bad.problems;
  assert.deepEqual([p.file, p.line, p.column, p.severity, p.code], ['/d/x.json', 3, 8, 'error', 'parse-error']);
  assert.match(p.message, /^the trial result is not valid JSON at line 3, column 8: /);
  assert.match(parseJsonDocument('/d/y.json', '[').problems[0].message, /^the file is cut off at line 1, column 2: .*so it is not valid JSON$/);

  const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
  assert.equal(parseJsonDocument('/d/ok.json', ok).ok, true, 'at the bound: read');
  const deepText = '{"a":\n' + '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1) + '}';
  const deep = parseJsonDocument('/d/deep.json', deepText, 'summary');
  assert.equal(deep.ok, false);
  assert.equal(deep.value, undefined);
  assert.equal(deep.problems.length, 1);
  assert.equal(deep.problems[0].code, 'too-deep');
  assert.equal(deep.problems[0].severity, 'error');
  assert.equal(deep.problems[0].line, 2);
  assert.equal(deep.problems[0].message, `the summary nests more than ${MAX_JSON_DEPTH} levels deep at line 2, column ${deep.problems[0].column}: not read`);
  const deepFirst = parseJsonDocument('/d/deep0.json', '['.repeat(MAX_JSON_DEPTH + 1));
  assert.equal(deepFirst.problems[0].code, 'too-deep', 'too deep at the start of the text is still too deep');
});

test('parseJsonDocument: a BOM, bytes that were not UTF-8, a key given twice, a number beyond a double: warnings, the value read', () => {
  const clean = parseJsonDocument('/d/c.json', '{"a": 1}');
  assert.deepEqual(clean, { path: '/d/c.json', text: '{"a": 1}', value: { a: 1 }, ok: true, problems: [] });

  const bom = parseJsonDocument('/d/b.json', '\ufeff{"a": 1}', 'job config');
  assert.deepEqual(bom.value, { a: 1 });
  assert.deepEqual(bom.problems, [{ file: '/d/b.json', line: 1, column: 1, severity: 'warning', code: 'bom',
    message: 'the job config starts with a UTF-8 byte order mark: read without it' }]);

  const utf8 = parseJsonDocument('/d/u.json', '{"a":\n "\ufffd"}', 'run.json', 2);
  assert.deepEqual(utf8.problems.map((p) => [p.line, p.severity, p.code]), [[2, 'warning', 'invalid-utf8']]);
  assert.match(utf8.problems[0].message, /^the run\.json holds bytes that are not UTF-8 \(first at line 2\)/);

  const dup = parseJsonDocument('/d/k.json', '{"a": 1,\n  "b": {"x": 1, "x": 2}}', 'file');
  assert.deepEqual(dup.value, { a: 1, b: { x: 2 } });
  assert.deepEqual(dup.problems.map((p) => [p.line, p.severity, p.code, p.message]), [
    [2, 'warning', 'duplicate-key', 'the file gives the key "x" twice in one object (again at line 2): the last one is read'],
  ]);
  assert.equal(dup.problems[0].column, 17);
  const longKey = 'k'.repeat(300);
  const dupLong = parseJsonDocument('/d/l.json', `{"${longKey}": 1, "${longKey}": 2}`);
  assert.ok(dupLong.problems[0].message.includes(`"${'k'.repeat(200)}" twice`));
  assert.ok(!dupLong.problems[0].message.includes('k'.repeat(201)));

  const big = parseJsonDocument('/d/n.json', '{\n  "r": {"reward": 1e400}\n}', 'trial result');
  assert.deepEqual(big.value, { r: { reward: null } });
  assert.deepEqual(big.problems.map((p) => [p.line, p.code, p.jsonPath]), [[2, 'number-out-of-range', ['r', 'reward']]]);
  assert.match(big.problems[0].message, /^the trial result .*r.*reward.* is a number beyond what a double holds \(it reads as Infinity\): read as no value$/);

  const all = parseJsonDocument('/d/all.json', '\ufeff{"x": 1, "x": 1e999}', 'f', 1);
  assert.deepEqual(all.problems.map((p) => p.code), ['bom', 'invalid-utf8', 'duplicate-key', 'number-out-of-range']);
});

test('readJsonDocument: bytes that are not UTF-8 said at their line, a BOM kept and said, a missing file at the caller\'s severity, a folder unreadable', async () => {
  const utf8 = `${tmpRoot}/bad-utf8.json`;
  fs.writeFileSync(utf8, Buffer.concat([Buffer.from('{\n"a":\n"'), Buffer.from([0xff]), Buffer.from('"}')]));
  const u = await readJsonDocument(node, utf8, 'x');
  assert.equal(u.ok, true);
  assert.deepEqual(u.problems.map((p) => [p.code, p.line]), [['invalid-utf8', 3]]);
  const first = `${tmpRoot}/bad-first.json`;
  fs.writeFileSync(first, Buffer.concat([Buffer.from([0xfe]), Buffer.from('1')]));
  const f = await readJsonDocument(node, first);
  assert.deepEqual(f.problems.map((p) => [p.code, p.line]), [['parse-error', 1]], 'a bad first byte never parses');
  const good = `${tmpRoot}/good.json`;
  fs.writeFileSync(good, '{"é": 1}');
  assert.deepEqual((await readJsonDocument(node, good)).problems, []);
  const bom = `${tmpRoot}/bom.json`;
  fs.writeFileSync(bom, '\ufeff[1]');
  const b = await readJsonDocument(node, bom, 'list');
  assert.deepEqual(b.value, [1]);
  assert.deepEqual(b.problems.map((p) => p.code), ['bom']);
  assert.equal(b.text.charCodeAt(0), 0xfeff, 'the text keeps the BOM');

  const gone = await readJsonDocument(node, `${tmpRoot}/none.json`, 'project.json', 'warning');
  assert.deepEqual(gone, { path: `${tmpRoot}/none.json`, text: '', value: undefined, ok: false,
    problems: [{ file: `${tmpRoot}/none.json`, severity: 'warning', code: 'missing-file', message: 'the project.json is not on disk' }] });
  assert.equal((await readJsonDocument(node, `${tmpRoot}/none.json`)).problems[0].severity, 'error', 'error unless told');
  const folder = `${tmpRoot}/a-folder.json`;
  fs.mkdirSync(folder);
  const d = await readJsonDocument(node, folder, 'run.json', 'warning');
  assert.equal(d.ok, false);
  assert.equal(d.problems.length, 1);
  assert.equal(d.problems[0].severity, 'error', 'there but unreadable: an error whatever the missing severity');
  assert.notEqual(d.problems[0].code, 'missing-file');
  assert.match(d.problems[0].message, /^cannot read the run\.json: /);
});

test('jsonDocumentOf: a batched read that is missing, too big or failed is a problem saying so', () => {
  const missing = jsonDocumentOf('/d/m.json', { missing: true }, 'job result.json', 'warning');
  assert.deepEqual(missing, { path: '/d/m.json', text: '', value: undefined, ok: false,
    problems: [{ file: '/d/m.json', severity: 'warning', code: 'missing-file', message: 'the job result.json is not on disk' }] });
  assert.equal(jsonDocumentOf('/d/m.json', { missing: true }).problems[0].severity, 'error');
  assert.equal(jsonDocumentOf('/d/m.json', { missing: true }).problems[0].message, 'the file is not on disk');
  const mib = jsonDocumentOf('/d/b.json', { tooBig: 3 * (1 << 20) + (1 << 19) }, 'lock', 'warning');
  assert.deepEqual(mib.problems, [{ file: '/d/b.json', severity: 'warning', code: 'too-big', message: 'the lock is 3.5 MiB, more than a reader reads of it: not read' }]);
  assert.equal(jsonDocumentOf('/d/b.json', { tooBig: 1 << 20 }).problems[0].message, 'the file is 1.0 MiB, more than a reader reads of it: not read');
  assert.equal(jsonDocumentOf('/d/b.json', { tooBig: (1 << 20) - 1 }).problems[0].message, 'the file is 1024 KiB, more than a reader reads of it: not read');
  assert.equal(jsonDocumentOf('/d/b.json', { tooBig: 1025 }).problems[0].message, 'the file is 2 KiB, more than a reader reads of it: not read');
  assert.equal(jsonDocumentOf('/d/b.json', { tooBig: 0 }).problems[0].code, 'too-big');
  const failed = jsonDocumentOf('/d/e.json', { error: 'EACCES: permission denied' }, 'config', 'warning');
  assert.deepEqual(failed.problems, [{ file: '/d/e.json', severity: 'warning', code: 'unreadable', message: 'cannot read the config: EACCES: permission denied' }]);
  const text = jsonDocumentOf('/d/t.json', { text: '{"a": 1, "a": 2}', badUtf8Line: 1 }, 'x');
  assert.equal(text.ok, true);
  assert.deepEqual(text.problems.map((p) => p.code), ['invalid-utf8', 'duplicate-key']);
  assert.equal(jsonDocumentOf('/d/t.json', { text: '' }).problems[0].code, 'parse-error', 'an empty text is read, and is not JSON');
});

test('locate and problemAt: the line and column of a JSON path, of its closest parent, none for a document not parsed or placed later', () => {
  const doc = parseJsonDocument('/d/p.json', '{\n  "tasks": [\n    {"id": "a"},\n    {"id": 5}\n  ]\n}');
  assert.deepEqual(locate(doc, ['tasks', 1, 'id']), { line: 4, column: 12 });
  assert.deepEqual(locate(doc, ['tasks', 0]), { line: 3, column: 5 });
  assert.deepEqual(locate(doc, ['tasks', 1, 'nope']), { line: 4, column: 5 }, 'the closest existing parent');
  assert.deepEqual(problemAt(doc, ['tasks', 1, 'id'], 'warning', 'schema', 'bad id'),
    { file: '/d/p.json', line: 4, column: 12, jsonPath: ['tasks', 1, 'id'], severity: 'warning', code: 'schema', message: 'bad id' });
  const bad = parseJsonDocument('/d/q.json', '{');
  assert.equal(locate(bad, []), undefined);
  assert.deepEqual(problemAt(bad, ['a'], 'error', 'c', 'm'), { file: '/d/q.json', jsonPath: ['a'], severity: 'error', code: 'c', message: 'm' });
  const later = { ...parseJsonDocument('/d/r.json', '{"a": 1}'), placeLater: async () => [] };
  assert.equal(locate(later, ['a']), undefined, 'placed later, in one request');
});

test('issueProblems: each issue at its path (keys as .k, indexes as [i], the top level named), at most max, the rest counted', () => {
  const doc = parseJsonDocument('/d/s.json', '{\n  "a": [0, {"b": 1}]\n}');
  const issues = [
    { path: ['a', 1, 'b'], message: 'expected string' },
    { path: [], message: 'unknown key' },
    { path: ['a', Symbol('s'), 0], message: 'with a symbol' },
    { path: ['a', 0], message: 'expected object' },
  ];
  const all = issueProblems(doc, issues, 'summary.json');
  assert.deepEqual(all.map((p) => [p.message, p.jsonPath, p.line, p.severity, p.code]), [
    ['summary.json .a[1].b: expected string', ['a', 1, 'b'], 2, 'warning', 'schema'],
    ['summary.json (top level): unknown key', [], 1, 'warning', 'schema'],
    ['summary.json .a[0]: with a symbol', ['a', 0], 2, 'warning', 'schema'],
    ['summary.json .a[0]: expected object', ['a', 0], 2, 'warning', 'schema'],
  ]);
  const two = issueProblems(doc, issues, 'summary.json', 2);
  assert.equal(two.length, 3);
  assert.deepEqual(two[2], { file: '/d/s.json', severity: 'warning', code: 'more-problems', message: '2 more schema problems in /d/s.json not listed' });
  assert.equal(issueProblems(doc, issues, 'x', 4).length, 4, 'exactly max: nothing more said');
  assert.equal(issueProblems(doc, issues, 'x', 3).at(-1)?.message, '1 more schema problems in /d/s.json not listed');
  assert.equal(issueProblems(doc, Array.from({ length: 51 }, () => ({ path: [], message: 'm' })), 'x').length, 51, '50 unless told, then one more');
});

test('issueProblems: a union\'s issue is replaced by its deepest branch\'s (the fewest issues on a tie); a union without a deep branch stays', () => {
  const doc = parseJsonDocument('/d/u.json', '{"t": [{"r": "x", "s": 1}]}');
  const union = (errors: { path: PropertyKey[]; message: string }[][]) => [{ path: ['t', 0], message: 'Invalid input', code: 'invalid_union', errors }];
  const deep = issueProblems(doc, union([
    [{ path: [], message: 'expected number' }],
    [{ path: ['r'], message: 'expected number at r' }, { path: ['s'], message: 'expected string at s' }],
    [{ path: ['r'], message: 'expected boolean at r' }],
    [],
  ]), 'x');
  assert.deepEqual(deep.map((p) => [p.message, p.jsonPath]), [['x .t[0].r: expected boolean at r', ['t', 0, 'r']]]);
  const nested = issueProblems(doc, union([[{ path: ['r', 'q'], message: 'deeper' }], [{ path: ['r'], message: 'shallow' }]]), 'x');
  assert.deepEqual(nested.map((p) => p.message), ['x .t[0].r.q: deeper']);
  const flat = issueProblems(doc, union([[{ path: [], message: 'expected number' }], []]), 'x');
  assert.deepEqual(flat.map((p) => [p.message, p.jsonPath]), [['x .t[0]: Invalid input', ['t', 0]]]);
  const noBranches = issueProblems(doc, [{ path: ['t'], message: 'Invalid input', code: 'invalid_union', errors: [] }], 'x');
  assert.deepEqual(noBranches.map((p) => p.message), ['x .t: Invalid input']);
  const other = issueProblems(doc, [{ path: ['t'], message: 'custom', code: 'custom', errors: [[{ path: ['r'], message: 'inner' }]] }], 'x');
  assert.deepEqual(other.map((p) => p.message), ['x .t: custom'], 'only a union is opened');
});

test('edges: a union issue without branches, a number beyond a double is a warning, a read that fails otherwise is unreadable', async () => {
  const doc = parseJsonDocument('/d/u.json', '{"t": 1}');
  assert.deepEqual(issueProblems(doc, [{ path: ['t'], message: 'Invalid input', code: 'invalid_union' }], 'x').map((p) => p.message), ['x .t: Invalid input']);
  const big = parseJsonDocument('/d/n.json', '[1e400]');
  assert.deepEqual(big.problems.map((p) => [p.severity, p.code]), [['warning', 'number-out-of-range']]);
  const failing = {
    readFile: async () => { throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }); },
    stat: async () => ({ type: 'file' as const, size: 1, mtimeMs: 0 }),
  } as unknown as NodeFs;
  const eio = await readJsonDocument(failing, '/d/x.json', 'thing');
  assert.deepEqual(eio.problems, [{ file: '/d/x.json', severity: 'error', code: 'unreadable', message: 'cannot read the thing: EIO: i/o error' }]);
});
