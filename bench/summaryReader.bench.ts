// Reading a big run summary: TASKS tasks × REPEATS repeats, each with a verifier folder of four files (every tenth
// folder gone). Prints the median time of readRunSummary and the file-system calls it made per attempt.
// Target: at most 3 calls per attempt, and within 2.5× a floor measured in the same run: a listing of every verifier
// folder and a read of the ctrf.json of every attempt that did not pass, 16 at a time (what any reader that checks
// evidence on disk and shows failed tests must do).
// Run: node esbuild.mjs && node out/bench/summaryReader.bench.js  (env TASKS, REPEATS, ROUNDS)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../src/core/fs/nodeFs';
import type { FsPort } from '../src/core/fs/port';
import { readRunSummary } from '../src/core/readers/runSummary';

const TASKS = Number(process.env.TASKS) || 2000;
const REPEATS = Number(process.env.REPEATS) || 4;
const ROUNDS = Number(process.env.ROUNDS) || 5;

function build(root: string): string {
  const tasks = [];
  for (let t = 0; t < TASKS; t++) {
    const repeats = [];
    for (let r = 0; r < REPEATS; r++) {
      const v = `verifier/resources-session-${t}-${r}`;
      const gone = (t * REPEATS + r) % 10 === 0;
      if (!gone) {
        fs.mkdirSync(`${root}/${v}`, { recursive: true });
        for (const f of ['test-stdout.txt', 'reward.txt', 'trajectory.json', 'ctrf.json']) fs.writeFileSync(`${root}/${v}/${f}`, '{}');
      }
      repeats.push(gone
        ? { repeat: r, outcome: 'scored', reward: 1, verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [v] }
        : { repeat: r, outcome: 'scored', reward: r % 2, verifier_logs: v, test_stdout: `${v}/test-stdout.txt`, reward_file: `${v}/reward.txt`,
          trajectory: `${v}/trajectory.json`, artifacts: null, missing: [] });
    }
    tasks.push({ task_id: `task-${t}`, task_index: t, repeats });
  }
  const summary = `${root}/rollouts_run_summary.json`;
  fs.writeFileSync(summary, JSON.stringify({ taskset: 'bench', agent: 'a', files: {}, missing_paths: [], tasks }, null, 2));
  return summary;
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-sum-')).split(path.sep).join('/');
  try {
    const summary = build(root);
    const nfs = new NodeFs();
    let calls = 0;
    const counting: FsPort = Object.assign(Object.create(nfs) as FsPort, {
      readDir: (p: string) => { calls++; return nfs.readDir(p); },
      stat: (p: string) => { calls++; return nfs.stat(p); },
      readFile: (p: string) => { calls++; return nfs.readFile(p); },
      // A batch listing counts as one call per folder it lists (the work is per folder, on a worker thread).
      listDirs: (ps: readonly string[]) => { calls += ps.length; return nfs.listDirs(ps); },
    });
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      calls = 0;
      const s = performance.now();
      const run = await readRunSummary(counting, summary);
      times.push(performance.now() - s);
      if (run.tasks.length !== TASKS) throw new Error(`read ${run.tasks.length} tasks`);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    const perAttempt = calls / (TASKS * REPEATS);
    const floors: number[] = [];
    const dirs = fs.readdirSync(`${root}/verifier`).map((d) => `${root}/verifier/${d}`);
    for (let i = 0; i < ROUNDS; i++) {
      let next = 0;
      const s = performance.now();
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (next < dirs.length) {
          const d = dirs[next++];
          await nfs.readDir(d);
          const [t, r] = d.split('resources-session-')[1].split('-').map(Number);
          if (r % 2 === 0) await nfs.readFile(`${d}/ctrf.json`);
          void t;
        }
      }));
      floors.push(performance.now() - s);
    }
    floors.sort((a, b) => a - b);
    const floor = floors[Math.floor(floors.length / 2)];
    console.log(`readRunSummary: ${TASKS}×${REPEATS} attempts, median ${median.toFixed(0)} ms (floor ${floor.toFixed(0)} ms, ×${(median / floor).toFixed(2)}); ${perAttempt.toFixed(2)} fs calls per attempt`);
    console.log(median <= 2.5 * floor && perAttempt <= 3 ? 'OK: within target' : 'SLOW: over target');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
