// What a JSON document that is not ATIF is said to be, word for word (each native format's markers, the keys listed
// for unrelated JSON), and the small JSON helpers the view model reads untrusted documents with: JSON pointers both
// ways (escapes, own properties only, array indexes), pretty printing that never throws, one-line summaries.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { detect } from '../../../src/core/trajectory/detect';
import { atPointer, oneLine, pointer, pretty, prettyExtra } from '../../../src/core/trajectory/json';

const ATIF_HAS = 'an ATIF trajectory has "schema_version": "ATIF-v1.x", "agent" and "steps"';
const not = (doc: unknown) => {
  const d = detect(doc);
  assert.equal(d.atif, false, JSON.stringify(doc));
  return d.atif ? null : { looksLike: d.notAtif.looksLike, detail: d.notAtif.detail, stepsLike: d.stepsLike };
};

test('ATIF versions: any "ATIF-" version is ATIF, v1.0 to v1.8 are known', () => {
  assert.deepEqual(detect({ schema_version: 'ATIF-v1.8', steps: [] }), { atif: true, version: 'ATIF-v1.8', known: true });
  assert.deepEqual(detect({ schema_version: 'ATIF-v1.0' }), { atif: true, version: 'ATIF-v1.0', known: true });
  assert.deepEqual(detect({ schema_version: 'ATIF-v1.9' }), { atif: true, version: 'ATIF-v1.9', known: false });
  assert.deepEqual(detect({ schema_version: 'ATIF-v1.10' }), { atif: true, version: 'ATIF-v1.10', known: false });
  assert.deepEqual(detect({ schema_version: 'ATIF-v1.2x' }), { atif: true, version: 'ATIF-v1.2x', known: false });
  assert.equal(detect({ schema_version: 'v1.2-ATIF-' }).atif, false);
  // Only own keys count: a schema_version on the prototype is not the document's.
  assert.equal(detect(Object.create({ schema_version: 'ATIF-v1.2' })).atif, false);
});

test('native agent formats are named by their markers', () => {
  const mini = { looksLike: 'a mini-swe-agent trajectory', detail: 'chat messages with role and content under "messages" and run info under "info"; convert it to ATIF to view it as a timeline', stepsLike: false };
  assert.deepEqual(not({ trajectory_format: 'mini-swe-agent-1', steps: [] }), mini);
  assert.deepEqual(not({ messages: [{ role: 'user', content: 'x' }], info: {} }), mini);
  assert.notDeepEqual(not({ trajectory_format: 'other', messages: [{ role: 'user' }], info: 3 }), mini);
  const swe = { looksLike: 'a SWE-agent trajectory (.traj)', detail: 'action / observation entries under "trajectory" and the chat under "history"', stepsLike: false };
  assert.deepEqual(not({ trajectory: [], history: [] }), swe);
  assert.deepEqual(not({ trajectory: [], info: {} }), swe);
  assert.equal(not({ trajectory: [] })!.looksLike, 'unrelated JSON');
  assert.equal(not({ trajectory: {}, history: [] })!.looksLike, 'unrelated JSON');
  const gemini = { looksLike: 'a gemini-cli session log', detail: 'messages of type "user" / "gemini" under "messages", keyed by sessionId', stepsLike: false };
  assert.deepEqual(not({ sessionId: 's', messages: [] }), gemini);
  assert.deepEqual(not({ projectHash: 'p', messages: [{ type: 'user' }] }), gemini);
  assert.equal(not({ sessionId: 's', messages: {} })!.looksLike, 'unrelated JSON');
  assert.equal(not({ sessionId: 1, messages: [] })!.looksLike, 'unrelated JSON');
  const chat = { looksLike: 'a chat transcript', detail: 'a list of role / content messages under "messages", not ATIF steps', stepsLike: false };
  assert.deepEqual(not({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }] }), chat);
  // Only the first five messages are looked at.
  assert.deepEqual(not({ messages: [...Array.from({ length: 5 }, () => ({ role: 'user' })), 'junk'] }), chat);
  assert.equal(not({ messages: [{ role: 'user' }, { content: 'no role' }] })!.looksLike, 'unrelated JSON');
  assert.equal(not({ messages: [{ role: 1 }] })!.looksLike, 'unrelated JSON');
  assert.equal(not({ messages: [] })!.looksLike, 'unrelated JSON');
  assert.equal(not({ messages: [null] })!.looksLike, 'unrelated JSON');
});

test('steps without an ATIF schema_version, and unrelated JSON with its keys listed', () => {
  assert.deepEqual(not({ steps: [] }), { looksLike: 'an ATIF-like document without an ATIF schema_version', detail: 'schema_version is missing; its steps are shown as far as they parse', stepsLike: true });
  assert.equal(not({ schema_version: 2, steps: [] })!.detail, 'schema_version is 2; its steps are shown as far as they parse');
  assert.equal(not({ schema_version: 'v1', steps: [1] })!.detail, 'schema_version is "v1"; its steps are shown as far as they parse');
  assert.deepEqual(not({ steps: {} }), { looksLike: 'unrelated JSON', detail: `an object with "steps"; ${ATIF_HAS}`, stepsLike: false });
  assert.equal(not({})!.detail, `an object with no keys; ${ATIF_HAS}`);
  assert.equal(not({ a: 1, b: 2 })!.detail, `an object with "a", "b"; ${ATIF_HAS}`);
  const seven = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => [k, 1]));
  assert.equal(not(seven)!.detail, `an object with "a", "b", "c", "d", "e", "f", … (7 keys); ${ATIF_HAS}`);
  const six = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => [k, 1]));
  assert.equal(not(six)!.detail, `an object with "a", "b", "c", "d", "e", "f"; ${ATIF_HAS}`);
  // Keys over 40 characters are cut to 39 and an ellipsis; a key of exactly 40 is shown whole.
  assert.equal(not({ ['k'.repeat(41)]: 1, ['j'.repeat(40)]: 2 })!.detail, `an object with "${'k'.repeat(39)}…", "${'j'.repeat(40)}"; ${ATIF_HAS}`);
});

test('arrays and other values', () => {
  assert.deepEqual(not([{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }]), { looksLike: 'a chat transcript', detail: 'a JSON array of 2 role / content messages, not an ATIF document', stepsLike: false });
  assert.deepEqual(not([{ action: 'run' }, 1]), { looksLike: 'an OpenHands-style event list', detail: 'a JSON array of 2 action / observation events', stepsLike: false });
  assert.equal(not([1, { observation: 'seen' }])!.looksLike, 'an OpenHands-style event list');
  // Only the first five entries are looked at for events.
  assert.deepEqual(not([1, 2, 3, 4, 5, { action: 'late' }]), { looksLike: 'unrelated JSON', detail: 'a JSON array of 6 items, not an ATIF document', stepsLike: false });
  assert.equal(not([])!.detail, 'a JSON array of 0 items, not an ATIF document');
  assert.equal(not([[{ action: 1 }]])!.looksLike, 'unrelated JSON');
  assert.deepEqual(not(null), { looksLike: 'unrelated JSON', detail: 'a JSON null, not an ATIF document', stepsLike: false });
  assert.equal(not(5)!.detail, 'a JSON number, not an ATIF document');
  assert.equal(not('ATIF-v1.2')!.detail, 'a JSON string, not an ATIF document');
  assert.equal(not(true)!.detail, 'a JSON boolean, not an ATIF document');
});

test('JSON pointers: escapes both ways, own properties only, array indexes as digits only', () => {
  assert.equal(pointer('steps', 3, 'a/b', 'c~d', '~/'), '/steps/3/a~1b/c~0d/~0~1');
  assert.equal(pointer(), '');
  const doc = { 'a/b': { 'c~d': [10, 20, { '~1': 'tilde-one' }] }, list: ['x', 'y'], n: 5 };
  assert.equal(atPointer(doc, ''), doc);
  assert.deepEqual(atPointer(doc, '/a~1b/c~0d/1'), 20);
  assert.equal(atPointer(doc, '/a~1b/c~0d/2/~01'), 'tilde-one');
  assert.equal(atPointer(doc, '/list/01'), 'y');
  assert.equal(atPointer(doc, '/list/1x'), undefined);
  assert.equal(atPointer(doc, '/list/-1'), undefined);
  assert.equal(atPointer(doc, '/list/2'), undefined);
  assert.equal(atPointer(doc, '/list/length'), undefined);
  assert.equal(atPointer(doc, '/n/x'), undefined);
  assert.equal(atPointer(doc, '/missing/x'), undefined);
  assert.equal(atPointer(doc, '/constructor'), undefined);
  assert.equal(atPointer({ a: null }, '/a'), null);
  assert.equal(atPointer({ a: null }, '/a/b'), undefined);
  assert.equal(atPointer(doc, pointer('a/b', 'c~d', 0)), 10);
});

test('pretty printing never throws; extra objects that are empty are not shown; one-line summaries', () => {
  assert.equal(pretty({ a: [1] }), '{\n  "a": [\n    1\n  ]\n}');
  assert.equal(pretty(undefined), 'undefined');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.match(pretty(cyclic), /^\(cannot be shown as JSON: .*circular/i);
  assert.equal(prettyExtra(undefined), null);
  assert.equal(prettyExtra(null), null);
  assert.equal(prettyExtra({}), null);
  assert.equal(prettyExtra([]), '[]');
  assert.equal(prettyExtra(0), '0');
  assert.equal(prettyExtra({ k: 'v' }), '{\n  "k": "v"\n}');
  assert.equal(oneLine('  a\n\n\tb   c  '), 'a b c');
  assert.equal(oneLine('abcdef', 5), 'abcd…');
  assert.equal(oneLine('abcde', 5), 'abcde');
  assert.equal(oneLine('x'.repeat(200)), `${'x'.repeat(159)}…`);
  // Only the first 4·max characters are looked at (a huge message is not flattened whole).
  assert.equal(oneLine(`${' '.repeat(20)}abc`, 5), '');
  assert.equal(oneLine(`${' '.repeat(19)}abc`, 5), 'a');
});
