// `inspect --json` writes its document in pieces (src/cli/jsonOut.ts): the pieces must join to exactly what
// JSON.stringify(doc, null, 2) gives, for any JSON value and for the documents of real runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
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
