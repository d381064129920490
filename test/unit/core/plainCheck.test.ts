// plainCheck (src/core/schemas/plainCheck.ts): the Harbor reader takes a parsed file as it is, without zod, when the
// check built from its schema says so. That is sound only if the schema passes every such value and its output is the
// value itself (the same keys and values, the same prototypes; in the same key order unless asked otherwise).
// Checked here on the committed example job's files and on many random changes of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import type { z } from 'zod';
import {
  ArtifactManifestSchema, JobConfigSchema, JobLockSchema, JobResultSchema, TaskIdSchema, TrialConfigSchema, TrialResultSchema,
} from '../../../src/core/schemas/harbor';
import { plainCheck, safeParsePlain } from '../../../src/core/schemas/plainCheck';
import { repoRoot } from '../../support/paths';

const job = path.join(repoRoot(), 'examples', 'harbor', 'jobs', '2026-08-21__14-03-11');
const read = (p: string): unknown => JSON.parse(fs.readFileSync(p, 'utf8'));

/** The example job's files, each with its schema and whether the reader asks for the same key order. */
function seeds(): { name: string; schema: z.ZodType; value: unknown; sameKeyOrder: boolean }[] {
  const out: { name: string; schema: z.ZodType; value: unknown; sameKeyOrder: boolean }[] = [
    { name: 'job result.json', schema: JobResultSchema, value: read(path.join(job, 'result.json')), sameKeyOrder: true },
    { name: 'job config.json', schema: JobConfigSchema, value: read(path.join(job, 'config.json')), sameKeyOrder: true },
    { name: 'job lock.json', schema: JobLockSchema, value: read(path.join(job, 'lock.json')), sameKeyOrder: false },
  ];
  for (const t of fs.readdirSync(job).filter((n) => n.includes('__')).sort()) {
    const at = (rel: string) => path.join(job, t, rel);
    if (fs.existsSync(at('result.json'))) out.push({ name: `${t} result.json`, schema: TrialResultSchema, value: read(at('result.json')), sameKeyOrder: false });
    if (fs.existsSync(at('config.json'))) out.push({ name: `${t} config.json`, schema: TrialConfigSchema, value: read(at('config.json')), sameKeyOrder: false });
    if (fs.existsSync(at('artifacts/manifest.json'))) {
      out.push({ name: `${t} manifest.json`, schema: ArtifactManifestSchema, value: read(at('artifacts/manifest.json')), sameKeyOrder: true });
    }
  }
  return out;
}

/** Every place in a value: the path of each object, array and leaf (the root is []). */
function places(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => places(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) places((v as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

/** A copy as JSON.parse makes it (an own "__proto__" key stays a key). */
const copy = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** Values JSON.parse can make, odd ones for the schemas among them. */
const VALUES = [
  'null', '0', '-1', '1.5', '9007199254740992', '"x"', '""', 'true', '{}', '[]', '[1,"a"]', '{"__proto__":{"a":1}}',
  '{"reward":1}', '{"reward":"1"}', '{"name":"n"}', '{"path":"p"}', '{"git_url":"g","path":1}', '{"org":"o","name":"n","ref":"r"}',
  '{"started_at":"2026"}', '{"exception_type":"E"}', '{"source":"s","destination":"d"}', '{"a":{"__proto__":1}}',
];

type Change = { at: number; op: 'set' | 'delete' | 'to-end' | 'add' | 'proto'; value: number };

/** `v` (a copy) with one change at its `at`-th place: a new value, a key deleted, moved last, added, a "__proto__" added. */
function changed(v: unknown, c: Change): unknown {
  const root = { v: copy(v) } as Record<string, unknown>;
  const all = places(root.v);
  const where = ['v', ...all[c.at % all.length]];
  const parent = where.slice(0, -1).reduce<Record<string | number, unknown>>((o, k) => o[k] as Record<string | number, unknown>, root);
  const key = where[where.length - 1];
  const here = parent[key];
  const value = JSON.parse(VALUES[c.value % VALUES.length]) as unknown;
  if (c.op === 'set') parent[key] = value;
  else if (c.op === 'delete' && !Array.isArray(parent) && key !== 'v') delete parent[key];
  else if (c.op === 'to-end' && !Array.isArray(parent) && key !== 'v') { delete parent[key]; parent[key] = here; }
  else if (c.op === 'add' && here && typeof here === 'object' && !Array.isArray(here)) (here as Record<string, unknown>)[`extra${c.value}`] = value;
  else if (c.op === 'proto' && here && typeof here === 'object' && !Array.isArray(here)) {
    parent[key] = JSON.parse(JSON.stringify(here).replace(/^\{/, '{"__proto__":1,').replace(',}', '}'));
  }
  return root.v;
}

/** What the reader may rely on when the check says plain: zod passes it, its output is the value (keys in order too). */
function assertSound(schema: z.ZodType, v: unknown, sameKeyOrder: boolean, what: string): boolean {
  if (!plainCheck(schema, sameKeyOrder)(v)) return false;
  const r = schema.safeParse(v);
  assert.ok(r.success, `${what}: plain but zod says ${r.success ? '' : r.error.message}`);
  assert.deepStrictEqual(r.data, v, what);
  if (sameKeyOrder) assert.equal(JSON.stringify(r.data), JSON.stringify(v), `${what}: keys in another order`);
  const p = safeParsePlain(schema, v, sameKeyOrder);
  assert.ok(p.success && p.data === v, `${what}: safeParsePlain gives the value itself`);
  return true;
}

test('plainCheck: the example job\'s files are plain (the reader skips zod on them) and sound', () => {
  const all = seeds();
  assert.ok(all.filter((s) => s.schema === TrialResultSchema).length >= 5);
  for (const s of all) assert.ok(assertSound(s.schema, s.value, s.sameKeyOrder, s.name), `${s.name} is not plain`);
});

test('plainCheck: on random changes of those files, plain only where zod passes and gives the value itself', () => {
  const all = seeds();
  let plain = 0;
  let notPlain = 0;
  const change = fc.record({
    at: fc.nat(), op: fc.constantFrom<Change['op']>('set', 'delete', 'to-end', 'add', 'proto'), value: fc.nat(),
  });
  fc.assert(fc.property(fc.nat(), fc.array(change, { minLength: 1, maxLength: 3 }), fc.boolean(), (which, changes, sameKeyOrder) => {
    const s = all[which % all.length];
    const v = changes.reduce((x, c) => changed(x, c), s.value);
    for (const order of sameKeyOrder ? [true] : [true, false]) {
      if (assertSound(s.schema, v, order, `${s.name} ${JSON.stringify(changes)}`)) plain++;
      else notPlain++;
    }
  }), { numRuns: 3000 });
  assert.ok(plain > 500 && notPlain > 500, `${plain} plain, ${notPlain} not`);
});

test('plainCheck: what is never plain, and key order', () => {
  const rewards = JSON.parse('{"verifier_result":{"rewards":{"__proto__":1,"reward":1}}}') as unknown;
  assert.equal(plainCheck(TrialResultSchema, false)(rewards), false, 'an own "__proto__" key');
  assert.equal(plainCheck(TrialResultSchema, false)({ started_at: 1 }), false);
  assert.equal(plainCheck(TrialResultSchema, false)({ verifier_result: { rewards: { reward: Number.POSITIVE_INFINITY } } }), false);
  assert.equal(plainCheck(JobResultSchema)({ n_total_trials: 2 ** 53 }), false, 'not a safe integer');
  assert.equal(plainCheck(JobResultSchema)({ n_total_trials: 1.5 }), false);
  // Keys in another order than the schema's: plain only when the order is not asked for.
  const late = { finished_at: 'b', id: 'a' };
  assert.equal(plainCheck(JobResultSchema)(late), false);
  assert.equal(plainCheck(JobResultSchema, false)(late), true);
  assert.equal(plainCheck(JobResultSchema)({ id: 'a', finished_at: 'b', other: 1 }), true);
  assert.equal(plainCheck(JobResultSchema)({ id: 'a', other: 1, finished_at: 'b' }), false);
  // A union's output is its first option that passes: plain with that option's key order.
  assert.equal(plainCheck(TaskIdSchema)({ path: 'p' }), true);
  assert.equal(plainCheck(TaskIdSchema)({ org: 'o', name: 'n', ref: null }), true);
  assert.equal(plainCheck(TaskIdSchema)({ name: 'n', org: 'o' }), false, 'the second option, its keys in another order');
  assert.equal(plainCheck(TaskIdSchema)({ git_url: 'g', path: 1 }), true, 'only the last option (any record) passes');
});
