// What a trajectory's text hides from a plain parse, said (src/core/trajectory/honest.ts): a file that is not JSON
// names the line and column where it stops being JSON (JSON.parse on Node 20 names only a character position).
// Each file is loaded whole and streamed in 5-byte chunks; both must give the same view.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
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
