// A viewer data project's project.json (src/core/readers/viewerProject.ts) and a training run's run.json
// (viewerTraining.ts), read from folders built in a temp dir: the project's label and support tiers, what is said of
// a tier without caveats and of a file that is missing, not JSON or wrongly typed; the training run's identity, label,
// times and files.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readViewerProject, supportLine } from '../../../src/core/readers/viewerProject';
import { readViewerTrainingRun } from '../../../src/core/readers/viewerTraining';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-viewer-units-')).split(path.sep).join('/');
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));
const node = new NodeFs();
let counter = 0;

function write(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

function projectDir(project?: unknown): string {
  const dir = `${tmpRoot}/root-${++counter}/projects/proj-${counter}`;
  fs.mkdirSync(dir, { recursive: true });
  if (project !== undefined) write(`${dir}/project.json`, project);
  return dir;
}

test('project.json: label, support tiers with their caveats; a tier other than stable without caveats is said (info, at its key)', async () => {
  const text = JSON.stringify({
    project_id: 'p-id', label: 'The Project',
    support: {
      'mini-swe-agent': { tier: 'stable' },
      opencode: { tier: 'beta', caveats: ['no images', 7, 'slow'] },
      codex: { tier: 'experimental' },
      claude: { tier: 'experimental', caveats: [] },
      broken: { tier: 3 },
      odd: 'stable',
    },
  }, null, 2);
  const dir = projectDir(text);
  const p = await readViewerProject(node, dir);
  assert.equal(p.dir, dir);
  assert.equal(p.id, path.posix.basename(dir));
  assert.equal(p.label, 'The Project');
  assert.deepEqual(p.support, {
    'mini-swe-agent': { tier: 'stable', caveats: [] },
    opencode: { tier: 'beta', caveats: ['no images', 'slow'] },
    codex: { tier: 'experimental', caveats: [] },
    claude: { tier: 'experimental', caveats: [] },
  });
  assert.deepEqual(p.file, { key: 'project', label: 'Project', path: `${dir}/project.json`, present: true });
  const notes = p.problems.filter((x) => x.code === 'tier-without-caveat');
  assert.deepEqual(notes.map((x) => [x.severity, x.jsonPath, x.message]), [
    ['info', ['support', 'codex'], 'harness codex is experimental but project.json says nothing about what does not work'],
    ['info', ['support', 'claude'], 'harness claude is experimental but project.json says nothing about what does not work'],
  ]);
  assert.equal(notes[0].line, text.split('\n').findIndex((l) => l.includes('"codex"')) + 1);
  // The wrongly typed tiers (a number, a string) are schema problems.
  const schema = p.problems.filter((x) => x.code === 'schema');
  assert.ok(schema.some((x) => x.message.startsWith('project.json .support.broken')), JSON.stringify(schema));
  assert.ok(schema.some((x) => x.message.startsWith('project.json .support.odd')), JSON.stringify(schema));
  assert.equal(supportLine(p.support), 'mini-swe-agent: stable · opencode: beta (no images; slow) · codex: experimental · claude: experimental');
  assert.equal(supportLine({}), null);
});

test('project.json: the label falls back to project_id, then the folder name; a missing, unparsable or non-object file still gives the project', async () => {
  const byId = await readViewerProject(node, projectDir({ project_id: 'from-id', label: 5 }));
  assert.equal(byId.label, 'from-id');
  assert.ok(byId.problems.some((x) => x.code === 'schema' && x.message.startsWith('project.json .label')));
  const bare = projectDir({ support: [] });
  const bareP = await readViewerProject(node, bare);
  assert.equal(bareP.label, path.posix.basename(bare));
  assert.deepEqual(bareP.support, {});

  const missing = projectDir();
  const m = await readViewerProject(node, missing);
  assert.equal(m.label, path.posix.basename(missing));
  assert.equal(m.file.present, false);
  assert.deepEqual(m.problems.map((x) => x.code), ['missing-file']);

  const unparsable = projectDir('{"label": "x",');
  const u = await readViewerProject(node, unparsable);
  assert.equal(u.label, path.posix.basename(unparsable), 'nothing of an unparsable file is used');
  assert.equal(u.file.present, true);
  assert.deepEqual(u.problems.map((x) => x.code), ['parse-error'], 'no schema problems on top of the parse error');

  const list = projectDir('["label"]');
  const l = await readViewerProject(node, list);
  assert.equal(l.label, path.posix.basename(list));
  assert.deepEqual(l.problems.map((x) => x.code), ['schema']);
});

function runDir(project: unknown, run?: unknown): string {
  const p = projectDir(project);
  const r = `${p}/runs/run-${counter}`;
  fs.mkdirSync(r, { recursive: true });
  if (run !== undefined) write(`${r}/run.json`, run);
  return r;
}

test('a training run\'s identity: project, run and the run.json\'s own strings, numbers and booleans (up to 16 keys), not its label or a repeated id', async () => {
  const r = runDir({ project_id: 'pid', label: 'Proj' }, {
    run_id: 'other-run', project_id: 'other-project', label: 'Nice label', model: 'Qwen', lr: 0.001, on_policy: true,
    notes: 'x'.repeat(201), nested: { a: 1 }, list: [1], nothing: null, started_at: '2026-08-21T10:00:00Z',
  });
  const runId = path.posix.basename(r);
  const projectId = path.posix.basename(path.posix.dirname(path.posix.dirname(r)));
  const run = await readViewerTrainingRun(node, r);
  assert.deepEqual(run.identity, {
    project: projectId, project_label: 'Proj', run: runId, run_id: 'other-run',
    project_id: 'other-project', model: 'Qwen', lr: '0.001', on_policy: 'true', started_at: '2026-08-21T10:00:00Z',
  });
  assert.equal(run.label, 'Proj / Nice label');
  assert.equal(run.startedAt, '2026-08-21T10:00:00Z');
  assert.equal(run.finishedAt, null);
  assert.equal(run.state, 'complete');
  assert.equal(run.id, `viewer-data:${r}/run.json`);
  assert.equal(run.root, r);
  assert.equal(run.anchor, `${r}/run.json`);
  assert.deepEqual(run.tasks, []);
  assert.deepEqual(run.training, { steps: 0 });
  assert.deepEqual(run.files, [
    { key: 'project', label: 'Project', path: `${path.posix.dirname(path.posix.dirname(r))}/project.json`, present: true },
    { key: 'run', label: 'Run', path: `${r}/run.json`, present: true },
    { key: 'metrics', label: 'Training metrics', path: null, present: false },
  ]);
});

test('a training run\'s identity: the run id and project id that repeat the folders are left out; at most 16 keys', async () => {
  const p = projectDir({ label: 'P' });
  const r = `${p}/runs/r1`;
  const many: Record<string, unknown> = { run_id: 'r1', project_id: path.posix.basename(p), run: 'not this', project: 'nor this', __proto__x: 'kept' };
  for (let i = 0; i < 20; i++) many[`k${String(i).padStart(2, '0')}`] = `v${i}`;
  write(`${r}/run.json`, many);
  const run = await readViewerTrainingRun(node, r);
  assert.equal(run.identity.run, 'r1');
  assert.equal(run.identity.project, path.posix.basename(p));
  assert.equal(run.identity.run_id, undefined);
  assert.equal(run.identity.project_id, undefined);
  assert.equal(Object.keys(run.identity).length, 16);
  assert.equal(run.identity.__proto__x, 'kept');
  assert.equal(run.identity.k11, 'v11');
  assert.equal(run.identity.k12, undefined);
  assert.equal(run.label, 'P / r1', 'no label: the run_id');
  // A literal "__proto__" key in the file is not taken.
  const q = `${p}/runs/r2`;
  write(`${q}/run.json`, '{"__proto__": "x", "finished_at": "2026-08-21T11:00:00Z", "run_id": "given"}');
  const run2 = await readViewerTrainingRun(node, q);
  assert.deepEqual(Object.keys(run2.identity), ['project', 'project_label', 'run', 'finished_at', 'run_id']);
  assert.equal(run2.label, 'P / given');
  assert.equal(run2.finishedAt, '2026-08-21T11:00:00Z');
});

test('a training run: run.json missing, not JSON, wrongly typed; a metrics file still being written is a running run', async () => {
  const gone = runDir({ label: 'P' });
  const g = await readViewerTrainingRun(node, gone);
  assert.equal(g.label, `P / ${path.posix.basename(gone)}`);
  assert.equal(g.files[1].present, false);
  assert.ok(g.problems.some((x) => x.code === 'missing-file'));
  const bad = runDir({ label: 'P' }, '{"label": ');
  const b = await readViewerTrainingRun(node, bad);
  assert.equal(b.files[1].present, true);
  assert.deepEqual(b.problems.map((x) => x.code), ['parse-error']);
  assert.equal(b.label, `P / ${path.posix.basename(bad)}`);
  const typed = runDir({ label: 'P' }, { label: 7, run_id: 8, started_at: 9 });
  const t = await readViewerTrainingRun(node, typed);
  assert.equal(t.label, `P / ${path.posix.basename(typed)}`);
  assert.equal(t.startedAt, null);
  assert.ok(t.problems.some((x) => x.code === 'schema' && x.message.startsWith('run.json .label')));
  assert.equal(t.identity.run_id, '8');
  const list = runDir({ label: 'P' }, '[1, 2]');
  const l = await readViewerTrainingRun(node, list);
  assert.deepEqual(Object.keys(l.identity), ['project', 'project_label', 'run']);
  // Problems of project.json come first.
  const noProject = `${tmpRoot}/root-x/projects/np/runs/r`;
  write(`${noProject}/run.json`, { label: 'L' });
  const n = await readViewerTrainingRun(node, noProject);
  assert.equal(n.label, 'np / L');
  assert.equal(n.problems[0].code, 'missing-file');
  assert.equal(n.problems[0].file, `${tmpRoot}/root-x/projects/np/project.json`);
  assert.equal(n.files[0].present, false);
  // Metrics: steps and the last row; a last line cut short is still being written.
  const live = runDir({ label: 'P' }, { label: 'L' });
  write(`${live}/train/metrics.jsonl`, `${JSON.stringify({ step: 1, reward: 0.5, reward_std: 0.1 })}\n{"step": 2, "rew`);
  const lv = await readViewerTrainingRun(node, live);
  assert.equal(lv.state, 'running', 'the last line is still being written');
  assert.equal(lv.training?.steps, 1);
  assert.equal(lv.files[2].present, true);
  assert.equal(lv.files[2].path, `${live}/train/metrics.jsonl`);
});

test('project.json and run.json holding null: read as empty objects (folder names, no identity keys); files named in the missing-file message', async () => {
  const p = projectDir('null');
  const pr = await readViewerProject(node, p);
  assert.equal(pr.label, path.posix.basename(p));
  assert.deepEqual(pr.support, {});
  const r = `${p}/runs/rn`;
  write(`${r}/run.json`, 'null');
  const run = await readViewerTrainingRun(node, r);
  assert.deepEqual(Object.keys(run.identity), ['project', 'project_label', 'run']);
  assert.equal(run.label, `${path.posix.basename(p)} / rn`);
  assert.deepEqual(run.unvalidated, []);
  assert.deepEqual(run.skipped, []);
  const gone = runDir(undefined);
  const g = await readViewerTrainingRun(node, gone);
  assert.deepEqual(g.problems.filter((x) => x.code === 'missing-file').map((x) => x.message),
    ['the project.json is not on disk', 'the run.json is not on disk']);
});

test('a training run\'s identity: a string of exactly 200 characters is kept; a key only repeating the run or project id\'s value is kept', async () => {
  const p = projectDir({ label: 'P' });
  const r = `${p}/runs/r7`;
  write(`${r}/run.json`, { notes: 'y'.repeat(200), alias: 'r7', owner: path.posix.basename(p) });
  const run = await readViewerTrainingRun(node, r);
  assert.equal(run.identity.notes, 'y'.repeat(200));
  assert.equal(run.identity.alias, 'r7');
  assert.equal(run.identity.owner, path.posix.basename(p));
});
