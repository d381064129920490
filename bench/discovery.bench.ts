// Discovery on a big workspace: RUNS NeMo Gym run folders (each with a verifier/ of SESSIONS log folders), a Harbor
// job of TRIALS trials, a viewer dataset of TRACES traces and a source tree of SOURCE files in nested folders.
// Prints the median time of discoverRuns and how many folders it read and paths it stat'ed: it must read none of the
// verifier, trial or traces folders and stat (almost) nothing. Target: < 500 ms for the default size on a laptop.
// Run: node esbuild.mjs && node out/bench/discovery.bench.js  (env RUNS, SESSIONS, TRIALS, TRACES, SOURCE, ROUNDS)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../src/core/fs/nodeFs';
import type { FsPort } from '../src/core/fs/port';
import { discoverRuns } from '../src/core/discovery';

const RUNS = Number(process.env.RUNS) || 50;
const SESSIONS = Number(process.env.SESSIONS) || 200;
const TRIALS = Number(process.env.TRIALS) || 500;
const TRACES = Number(process.env.TRACES) || 2000;
const SOURCE = Number(process.env.SOURCE) || 5000;
const ROUNDS = Number(process.env.ROUNDS) || 7;

function touch(file: string, data = ''): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}

function build(root: string): void {
  for (let r = 0; r < RUNS; r++) {
    const d = `${root}/results/run-${r}`;
    touch(`${d}/rollouts.jsonl`);
    touch(`${d}/rollouts_materialized_inputs.jsonl`);
    if (r % 2 === 0) touch(`${d}/rollouts_run_summary.json`, '{}');
    for (let s = 0; s < SESSIONS; s++) touch(`${d}/verifier/resources-session-${s}/reward.txt`, '1');
  }
  const job = `${root}/jobs/job-1`;
  touch(`${job}/config.json`, '{}');
  touch(`${job}/result.json`, '{}');
  for (let t = 0; t < TRIALS; t++) {
    touch(`${job}/task-${t}__abc/result.json`, '{}');
    touch(`${job}/task-${t}__abc/agent/trajectory.json`, '{}');
  }
  const p = `${root}/data/projects/p`;
  touch(`${p}/project.json`, '{}');
  touch(`${p}/datasets/d/summary.json`, '{"tasks":[]}');
  for (let t = 0; t < TRACES; t++) touch(`${p}/datasets/d/traces/t-${t}.json`, '{}');
  for (let f = 0; f < SOURCE; f++) touch(`${root}/src/m${f % 50}/sub${f % 7}/file-${f}.ts`);
  for (let f = 0; f < 2000; f++) touch(`${root}/node_modules/pkg-${f % 100}/index-${f}.js`);
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-disc-')).split(path.sep).join('/');
  try {
    const t0 = performance.now();
    build(root);
    console.log(`built tree in ${(performance.now() - t0).toFixed(0)} ms`);
    const nfs = new NodeFs();
    let reads = 0;
    let stats = 0;
    // Folders discovery must not read: a run's verifier log folders, a job's trial folders, a dataset's traces.
    const hidden = /\/verifier(\/|$)|__abc(\/|$)|\/traces(\/|$)/;
    let hiddenReads: string[] = [];
    const counting: FsPort = Object.assign(Object.create(nfs) as FsPort, {
      readDir: (p: string) => { reads++; if (hidden.test(p)) hiddenReads.push(p); return nfs.readDir(p); },
      stat: (p: string) => { stats++; return nfs.stat(p); },
    });
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < ROUNDS; i++) {
      reads = 0;
      stats = 0;
      hiddenReads = [];
      const s = performance.now();
      found = (await discoverRuns(counting, root)).length;
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`discoverRuns: ${found} runs, median ${median.toFixed(1)} ms over ${ROUNDS} rounds; ${reads} folders read, ${stats} stats`);
    // isHarborJobDir lists trial folders until it finds one (the first): that one read is expected.
    console.log(`folders read inside verifier, trial or traces folders: ${hiddenReads.length}${hiddenReads.length ? ` (${hiddenReads.slice(0, 5).map((x) => x.slice(root.length + 1)).join(', ')})` : ''}`);
    console.log(median < 500 ? 'OK: under the 500 ms target' : 'SLOW: over the 500 ms target');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
