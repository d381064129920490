// `inspect --json` writes its document in pieces (src/cli/jsonOut.ts): the pieces must join to exactly what
// JSON.stringify(doc, null, 2) gives, for any JSON value and for the documents of real runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import fc from 'fast-check';
import { jsonPieces, writeJson } from '../../src/cli/jsonOut';
import { NodeFs } from '../../src/core/fs/nodeFs';
import { loadRuns } from '../../src/core/load';
import { inspectDocument } from '../../src/core/report';
import { generateHarborJob, harborEveryCase } from '../../scripts/sample-runs/harborJob';

test('the pieces join to JSON.stringify(value, null, 2) for any JSON value, undefined members included', () => {
  const withHoles = fc.jsonValue({ maxDepth: 7 }).map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? { ...v, gone: undefined } : v));
  fc.assert(fc.property(withHoles, (v) => {
    assert.equal([...jsonPieces(v)].join(''), JSON.stringify(v, null, 2));
  }), { numRuns: 300 });
  const nested = { a: [[], {}, [1, [2, { b: [undefined, 'x\ny'] }]]], c: { d: { e: { f: { g: { h: [1, { i: 2 }] } } } } } };
  assert.equal([...jsonPieces(nested)].join(''), JSON.stringify(nested, null, 2));
});

test('writeJson writes an inspect document byte for byte as JSON.stringify does, with a final newline', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-jsonout-'));
  try {
    await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
    const posixRoot = root.split(path.sep).join('/');
    const doc = inspectDocument(posixRoot, await loadRuns(new NodeFs(), [posixRoot]));
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await writeJson(out, doc);
    assert.equal(Buffer.concat(chunks).toString('utf8'), `${JSON.stringify(doc, null, 2)}\n`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('writeJson across chunk boundaries: multi-byte text, escaped controls, pieces larger than a chunk, a slow reader', async () => {
  // Text of 1-, 2-, 3- and 4-byte characters and the raw controls escaped for a terminal (C1, bidi), in strings of
  // every size up to ~1 MB, deep enough to be stringified whole and shallow enough to be walked piece by piece.
  const texts = ['a', 'é', '€', '😀', '\u0085', '\u202e', '\u2066x'];
  const str = (i: number) => texts[i % texts.length].repeat(1 + ((i * 7919) % 1500)) + (i % 97 === 0 ? 'ü'.repeat(400_000) : '');
  const doc = {
    runs: Array.from({ length: 3 }, (_, r) => ({
      id: str(r),
      tasks: Array.from({ length: 400 }, (_, t) => ({ id: str(r * 1000 + t), attempts: [{ label: str(t + 3), deep: { x: [str(t)] } }] })),
    })),
  };
  const expected = Buffer.from(`${JSON.stringify(doc, null, 2)}\n`.replace(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const out = new PassThrough({ highWaterMark: 1024 });
  const chunks: Buffer[] = [];
  // Read slowly, so the writer has to wait for 'drain'.
  const reading = (async () => { for await (const c of out) { chunks.push(c as Buffer); await new Promise((r) => setImmediate(r)); } })();
  await writeJson(out, doc);
  out.end();
  await reading;
  const got = Buffer.concat(chunks);
  assert.ok(expected.length > 4 << 20, `a document of several chunks (${expected.length} bytes)`);
  assert.ok(got.equals(expected), 'the bytes JSON.stringify(doc, null, 2) gives, controls escaped');
});

test('writeJson takes a turn of the event loop after each chunk, also on a stream that writes synchronously', async () => {
  const doc = { tasks: Array.from({ length: 3000 }, (_, i) => ({ id: `t${i}`, text: 'x'.repeat(1000) })) };
  const parts: Buffer[] = [];
  const sync = new Writable({ highWaterMark: 64 << 20, write(c: Buffer, _e, cb) { parts.push(Buffer.from(c)); cb(); } });
  let ticks = 0;
  let on = true;
  const tick = () => { if (on) { ticks++; setImmediate(tick); } };
  setImmediate(tick);
  await writeJson(sync, doc);
  on = false;
  assert.equal(Buffer.concat(parts).toString('utf8'), `${JSON.stringify(doc, null, 2)}\n`);
  assert.ok(parts.length >= 3, `${parts.length} chunks`);
  assert.ok(ticks >= parts.length - 1, `${ticks} turns for ${parts.length} chunks`);
});
