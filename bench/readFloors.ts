// The readers bench's floors (bench/readers.bench.ts): what any reader of a shape must do, synchronously in one
// thread. Kept apart from the bench so that a floor can also run as its own small process, as `inspect` does:
//   node out/bench/readFloors.js <harbor|summary|rows|viewer> <dir>   prints {"ms":…,"n":…}
// A floor timed inside the bench's process, after an untimed run, reads into a heap already grown and touched; a new
// process (Node's start, this file's load, memory touched for the first time) is what `inspect` is measured as.
import * as fs from 'node:fs';
import * as path from 'node:path';

function listSync(dir: string): fs.Dirent[] | undefined {
  try { return fs.readdirSync(dir, { withFileTypes: true }); } catch { return undefined; }
}

function parseSync(file: string): unknown {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; }
}

/** A Harbor job's floor: list the job; per trial list it, read and parse result.json, list agent/ and verifier/. */
export function harborFloor(jobsDir: string): number {
  let n = 0;
  for (const job of listSync(jobsDir) ?? []) {
    if (!job.isDirectory()) continue;
    const root = path.join(jobsDir, job.name);
    for (const e of listSync(root) ?? []) {
      if (!e.isDirectory()) continue;
      const d = path.join(root, e.name);
      listSync(d);
      if (parseSync(path.join(d, 'result.json')) !== undefined) n++;
      listSync(path.join(d, 'agent'));
      listSync(path.join(d, 'verifier'));
    }
  }
  return n;
}

/** A run summary's floor: read and parse it, list every verifier folder it names. */
export function summaryFloor(dir: string): number {
  let n = 0;
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('_run_summary.json'))) {
    const s = parseSync(path.join(dir, f)) as { tasks?: { repeats?: { verifier_logs?: string | null }[] }[] };
    for (const t of s.tasks ?? []) for (const r of t.repeats ?? []) {
      n++;
      if (r.verifier_logs) listSync(path.resolve(dir, r.verifier_logs));
    }
  }
  return n;
}

/** Rows without a summary: read and parse every row of the rollouts, list every verifier folder a row names. */
export function rowsFloor(dir: string): number {
  let n = 0;
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.jsonl') && !x.includes('_'))) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { verifier_logs_dir?: string };
      n++;
      if (row.verifier_logs_dir) listSync(path.resolve(dir, row.verifier_logs_dir));
    }
  }
  return n;
}

/** A viewer dataset's floor: read and parse project.json, dataset.json, summary.json; list traces/. */
export function viewerFloor(dataDir: string): number {
  let n = 0;
  for (const p of listSync(path.join(dataDir, 'projects')) ?? []) {
    const proj = path.join(dataDir, 'projects', p.name);
    parseSync(path.join(proj, 'project.json'));
    for (const d of listSync(path.join(proj, 'datasets')) ?? []) {
      const ds = path.join(proj, 'datasets', d.name);
      parseSync(path.join(ds, 'dataset.json'));
      const s = parseSync(path.join(ds, 'summary.json')) as { tasks?: unknown[] } | undefined;
      n += s?.tasks?.length ?? 0;
      listSync(path.join(ds, 'traces'));
    }
  }
  return n;
}

export const FLOORS = { harbor: harborFloor, summary: summaryFloor, rows: rowsFloor, viewer: viewerFloor } as const;
export type FloorKind = keyof typeof FLOORS;

// Run as its own file (bundled into the bench, this file's code is the bench's: __filename names the bench).
if (path.basename(__filename) === 'readFloors.js') {
  const kind = process.argv[2] as FloorKind;
  const dir = process.argv[3];
  if (!FLOORS[kind] || !dir) {
    console.error('usage: readFloors <harbor|summary|rows|viewer> <dir>');
    process.exit(2);
  }
  const t = performance.now();
  const n = FLOORS[kind](dir);
  process.stdout.write(`${JSON.stringify({ ms: performance.now() - t, n })}\n`);
}
