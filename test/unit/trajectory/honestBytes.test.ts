// What a trajectory's bytes hide from a plain parse, said (src/core/trajectory/honest.ts): a file that is not JSON
// names the line and column where it stops being JSON (JSON.parse on Node 20 names only a character position), and
// bytes that are not UTF-8 or a byte order mark are warnings naming the file (and the line), the steps still read.
// Each file is loaded whole and streamed in 5-byte chunks; both must give the same view.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { loadTrajectory, type TrajectoryView } from '../../../src/core/trajectory';
import { chunkedFs } from './helpers';

const DIR = '/runs/job/trial/agent';
const FILE = `${DIR}/trajectory.json`;
const head = '{\n  "schema_version": "ATIF-v1.7",\n  "agent": {"name": "a", "version": "1"},\n';

async function load(files: Record<string, string | Uint8Array>): Promise<TrajectoryView> {
  const m = new MemFs();
  for (const [rel, v] of Object.entries(files)) m.put(`${DIR}/${rel}`, v);
  const whole = await loadTrajectory(m, FILE);
  const streamed = await loadTrajectory(chunkedFs(m, 5), FILE);
  assert.deepEqual(streamed, whole);
  return streamed;
}

test('a trajectory that is not JSON says the line and column where it stops being JSON', async () => {
  // A step with a stray word on line 5 (an agent's hand-edited file, a bad merge).
  const v = await load({ 'trajectory.json': `${head}  "steps": [\n    {"step_id": 1, "source": "user", "message": "hi"},\n    oops {"step_id": 2}\n  ]\n}\n` });
  assert.match(v.unreadable ?? '', /^not valid JSON at line 6, column 5: /);
  // Cut off mid-write (a trial still running): the end of the text.
  const cut = await load({ 'trajectory.json': `${head}  "steps": [\n    {"step_id": 1, "source": "user", "message": "hi` });
  assert.match(cut.unreadable ?? '', /^not valid JSON at line 5, column 52: /);
  // A continuation that is not JSON: its problem says where too.
  const c = await load({
    'trajectory.json': `${head}  "continued_trajectory_ref": "trajectory.cont-1.json",\n  "steps": [{"step_id": 1, "source": "user", "message": "a"}]\n}`,
    'trajectory.cont-1.json': '{\n  "steps": [\n    }\n',
  });
  assert.equal(c.unreadable, null);
  assert.match(c.problems.map((p) => p.message).join('\n'), /continuation "trajectory\.cont-1\.json": not valid JSON at line 3, column 5: /);
});

test('bytes that are not UTF-8 in a message are a warning naming the line; the steps are all read', async () => {
  const bytes = Buffer.concat([
    Buffer.from(`${head}  "steps": [\n    {"step_id": 1, "source": "user", "message": "ok"},\n    {"step_id": 2, "source": "agent", "message": "caf`),
    Buffer.from([0xe9]), // Latin-1 "é"
    Buffer.from('"}\n  ]\n}\n'),
  ]);
  const v = await load({ 'trajectory.json': bytes });
  assert.equal(v.unreadable, null);
  assert.equal(v.steps.length, 2);
  const w = v.problems.filter((p) => /not UTF-8/.test(p.message));
  assert.equal(w.length, 1, JSON.stringify(v.problems));
  assert.deepEqual([w[0].file, w[0].pointer, w[0].severity], [FILE, '', 'warning']);
  assert.match(w[0].message, /first at line 6\b.*U\+FFFD/);
  // Well-formed UTF-8 (accents, emoji, CJK) says nothing.
  const fine = await load({ 'trajectory.json': `${head}  "steps": [{"step_id": 1, "source": "user", "message": "café 😀 漢字"}]\n}` });
  assert.deepEqual(fine.problems, []);
});

test('a byte order mark is read past, with a warning; in a continuation the warning names the continuation', async () => {
  const bom = (s: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s)]);
  const v = await load({ 'trajectory.json': bom(`${head}  "steps": [{"step_id": 1, "source": "user", "message": "a"}]\n}`) });
  assert.equal(v.steps.length, 1);
  assert.deepEqual(v.problems.map((p) => [p.file, p.severity, p.message]), [[FILE, 'warning', 'the file starts with a UTF-8 byte order mark: read without it']]);
  const c = await load({
    'trajectory.json': `${head}  "continued_trajectory_ref": "trajectory.cont-1.json",\n  "steps": [{"step_id": 1, "source": "user", "message": "a"}]\n}`,
    'trajectory.cont-1.json': Buffer.concat([bom(`${head}  "steps": [{"step_id": 1, "source": "user", "message": "b`), Buffer.from([0xff]), Buffer.from('"}]}')]),
  });
  assert.equal(c.steps.length, 2);
  assert.deepEqual(c.problems.map((p) => [p.file, p.message.slice(0, 40)]), [
    [`${DIR}/trajectory.cont-1.json`, 'the file starts with a UTF-8 byte order '],
    [`${DIR}/trajectory.cont-1.json`, 'the file holds bytes that are not UTF-8 '],
  ]);
});
