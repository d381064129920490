// The WebAssembly skipper (skipWasm.ts) against the byte walk it replaces in scan.ts: the same end of every string and
// container, the same failures, on random texts dense with quotes, backslashes and brackets (escapes across the
// 16-byte blocks it reads); KeyPicker and runRowJob giving the same answers with it as without; its memory grown for
// a chunk larger than it holds.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FastSkip, FAST_SKIP_MAX } from '../../../src/core/summary/skipWasm';
import { fastSkip, KeyPicker, setFastSkip } from '../../../src/core/summary/scan';
import { RESULT_KEYS, runRowJob } from '../../../src/core/summary/lineOutcome';

/** The walk scan.ts does without the skipper (indexOf per quote, backslashes counted back), as its reference. */
function refString(b: Uint8Array, i: number, end: number): number {
  let j = i + 1;
  for (;;) {
    let q = -1;
    for (let k = j; k < end; k++) if (b[k] === 0x22) { q = k; break; }
    if (q < 0) return -1 - end;
    let k = q - 1;
    while (k > i && b[k] === 0x5c) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}
function refBox(b: Uint8Array, i: number, end: number): number {
  let depth = 0;
  for (let j = i; j < end;) {
    const c = b[j];
    if (c === 0x22) { const r = refString(b, j, end); if (r < 0) return r; j = r; continue; }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) { depth--; if (depth === 0) return j + 1; }
    j++;
  }
  return -1 - end;
}

/** A small seeded generator (the same texts every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

function skipper(): FastSkip {
  const f = FastSkip.create();
  assert.ok(f, 'WebAssembly SIMD runs on this Node');
  return f;
}

test('FastSkip: the end of every string and container as the byte walk finds it, or the same failure', () => {
  const f = skipper();
  const rnd = random(7);
  const dense = ['"', '\\', '\\', '{', '}', '[', ']'];
  const any = [...dense, 'a', ' ', ',', ':', 'ü', 'n'];
  let strings = 0, boxes = 0, failures = 0;
  for (let t = 0; t < 30_000; t++) {
    const open = rnd() < 0.5 ? '"' : rnd() < 0.5 ? '{' : '[';
    let s = open;
    const n = Math.floor(rnd() * 80);
    for (let k = 0; k < n; k++) s += rnd() < 0.4 ? dense[Math.floor(rnd() * dense.length)] : any[Math.floor(rnd() * any.length)];
    const pad = Math.floor(rnd() * 20);
    const bytes = Buffer.from(`${' '.repeat(pad)}${s}"}]" tail`);
    const start = pad;
    const end = start + Math.floor(rnd() * (bytes.length - start + 1));
    if (end <= start) continue;
    const mem = f.load(bytes, 0, bytes.length);
    const got = open === '"' ? f.str(start, end) : f.box(start, end);
    const want = open === '"' ? refString(mem, start, end) : refBox(mem, start, end);
    assert.equal(got, want, `${JSON.stringify(bytes.toString())} [${start}, ${end})`);
    if (open === '"') strings++; else boxes++;
    if (got < 0) failures++;
  }
  // The texts reached every case: strings, containers, and both ending and failing.
  assert.ok(strings > 5_000 && boxes > 5_000 && failures > 1_000 && failures < strings + boxes - 1_000, `${strings} ${boxes} ${failures}`);
});

test('FastSkip: a long text string with escapes at every offset of its 16-byte blocks', () => {
  const f = skipper();
  for (let at = 0; at < 40; at++) {
    for (const esc of ['\\"', '\\\\', '\\\\\\"', '\\n']) {
      const body = `${'x'.repeat(at)}${esc}${'y'.repeat(37 - (at % 17))}`;
      const bytes = Buffer.from(`"${body}", "next": 1`);
      f.load(bytes, 0, bytes.length);
      assert.equal(f.str(0, bytes.length), body.length + 2, body);
      // Cut inside the string: it does not close.
      assert.equal(f.str(0, body.length + 1), -1 - (body.length + 1), body);
    }
  }
});

test('KeyPicker: the same picks and failures with the skipper as without, and the skipper is what skips', () => {
  const f = skipper();
  const before = fastSkip();
  const lines = [
    '{"input": [{"role": "user", "content": "saw \\"run.sh\\" then \\\\ ok ünï"}], "reward": 1, "meta": {"a": "b\\""}, "id": "t-1"}',
    '{"input": "' + 'abc\\"def\\\\'.repeat(50) + '", "reward": 0.5, "id": "t-2"}',
    '{"big": {"k": [' + '"q\\"", '.repeat(40) + '"end"]}, "id": "t-3", "meta": {"a": 1}}',
    '{"input": "unterminated \\" string, "id": "x"}',
    '{"input": [1, 2, {"a": "]"}, "id": "t-4"}',
  ];
  const picker = new KeyPicker(['id', 'reward', 'meta'], { meta: new KeyPicker(['a']) });
  const outcome = (b: Uint8Array, start: number, end: number) => {
    try { return { value: picker.pickRange(b, start, end) }; } catch (e) { return { error: `${(e as Error).name}: ${(e as Error).message}` }; }
  };
  let calls = 0;
  const str = f.str, box = f.box;
  Object.assign(f, { str: (i: number, e: number) => { calls++; return str(i, e); }, box: (i: number, e: number) => { calls++; return box(i, e); } });
  try {
    for (const line of lines) {
      for (let end = 1; end <= line.length; end += Math.max(1, Math.floor(line.length / 60))) {
        const plain = Buffer.from(line);
        const cut = Buffer.byteLength(line.slice(0, end));
        setFastSkip(undefined);
        const without = outcome(plain, 0, cut);
        setFastSkip(f);
        const mem = f.load(plain, 0, plain.length);
        const withIt = outcome(mem, 0, cut);
        assert.deepEqual(withIt, without, `${line} cut at ${cut}`);
      }
    }
  } finally {
    setFastSkip(before);
  }
  assert.ok(calls > 100, `the skipper skipped (${calls} calls)`);
});

test('runRowJob: the same lines, rows and problems with the skipper as without, for a chunk larger than its memory was', () => {
  const f = skipper();
  const before = fastSkip();
  const rows: string[] = [];
  for (let i = 0; i < 400; i++) {
    const text = `step ${i}: saw \\"out.txt\\" and \\\\ then \\n`.repeat(1 + (i % 30));
    rows.push(i % 97 === 5 ? `{"_ng_task_id": "t-${i}", "response": "${text}` // not JSON: cut inside a string
      : `{"responses_create_params": {"input": [{"content": "${text}"}], "metadata": {"k": "${i % 3}"}}, "response": {"output": ["${text}"]}, "_ng_task_id": "t-${i}", "_ng_rollout_index": ${i % 4}, "reward": ${i % 2}}`);
  }
  const bytes = Buffer.from(`xx\n${rows.join('\n')}\n`);
  const job = { id: 1, bytes, start: 3, end: bytes.length, first: false };
  assert.ok(bytes.length > 65_536, 'larger than the memory the skipper starts with');
  try {
    setFastSkip(undefined);
    const without = runRowJob(job);
    setFastSkip(f);
    const withIt = runRowJob(job);
    assert.equal(f.bytes.length >= bytes.length - 3, true, 'the memory grew to the chunk');
    assert.deepEqual(withIt, without);
    assert.equal(without.outcomes.filter(([, o]) => o.error).length, 5, 'the five broken rows fail');
  } finally {
    setFastSkip(before);
  }
});

test('runRowJob: a chunk over FAST_SKIP_MAX is scanned where it lies (the skipper\'s memory is not grown to it)', () => {
  const f = skipper();
  const before = fastSkip();
  const row = `{"response": "${'x\\"y'.repeat(1000)}", "_ng_task_id": "t"}\n`;
  const bytes = Buffer.from(row.repeat(Math.ceil((FAST_SKIP_MAX + 1) / row.length)));
  try {
    setFastSkip(f);
    const sizeBefore = f.bytes.length;
    const a = runRowJob({ id: 1, bytes, start: 0, end: bytes.length, first: true });
    assert.equal(f.bytes.length, sizeBefore);
    assert.equal(a.outcomes.length, bytes.length / row.length);
    assert.ok(a.outcomes.every(([, o]) => o.row?._ng_task_id === 't'));
  } finally {
    setFastSkip(before);
  }
});

test('RESULT_KEYS with the skipper: unchanged picks of a transcript row', () => {
  const f = skipper();
  const before = fastSkip();
  const line = Buffer.from('{"responses_create_params": {"input": [{"content": "a \\"b\\" c"}], "metadata": {"x": "1"}}, "response": {"output": [{"text": "\\\\\\"q"}]}, "reward": 1, "_ng_task_id": "t-9", "verifier_logs_dir": "/v/9"}');
  try {
    setFastSkip(f);
    const mem = f.load(line, 0, line.length);
    assert.deepEqual(RESULT_KEYS.pickRange(mem, 0, line.length), {
      responses_create_params: { metadata: { x: '1' } }, reward: 1, _ng_task_id: 't-9', verifier_logs_dir: '/v/9',
    });
  } finally {
    setFastSkip(before);
  }
});
