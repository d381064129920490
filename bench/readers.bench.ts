// Reading runs at scale: for each generated shape, the floor (what any reader must read, synchronously in one thread,
// measured in this run), ours (`harbor-runs inspect --json` through the built CLI, and the core reader alone), their
// ratio (target ≤ 2×), the peak RSS of the CLI (target ≤ 256 MB), what the model costs per attempt, and the core
// reader's longest event-loop block (the worst round; the extension host's target is 50 ms).
// Shapes (scripts/sample-runs/, generated once into BENCH_SHAPES, default <tmp>/harbor-runs-bench-shapes):
//   harbor-10k     a Harbor job of 10,000 trials (2,500 tasks × 4)
//   nemo-40k       a NeMo Gym run read from its summary: 5,000 tasks × 8 repeats
//   viewer-10k     a viewer data dir of 10,000 tasks × 8 attempts (2 models × 2 harnesses × 2)
//   harbor-holes   (not tuned for) 2,000 trials, every other one without agent/ and verifier/ folders
//   nemo-long      (not tuned for) 400 tasks × 4 repeats of 40 kB transcripts, no summary yet (read from the rows)
// Run: npm run bench, or node esbuild.mjs && node out/bench/readers.bench.js [shape...]  (env ROUNDS, default 3)
import { spawnSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateHarborJob, harborLarge } from '../scripts/sample-runs/harborJob';
import { generateNemoRun, nemoLarge } from '../scripts/sample-runs/nemoGym';
import { generateViewerData, viewerLarge } from '../scripts/sample-runs/viewerData';
import { NodeFs } from '../src/core/fs/nodeFs';
import { loadRuns } from '../src/core/load';
import { writeRunSummary } from '../src/core/summary';
import { FLOORS, type FloorKind } from './readFloors';

const ROUNDS = Number(process.env.ROUNDS) || 3;
const SHAPES = process.env.BENCH_SHAPES ?? path.join(os.tmpdir(), 'harbor-runs-bench-shapes');
const CLI = path.join(__dirname, '..', 'cli.js');
const SELF = __filename;
const FLOOR_CHILD = path.join(__dirname, 'readFloors.js');

interface Shape {
  name: string;
  tuned: boolean;
  /** The folder inspect is given. */
  dir: string;
  make(): Promise<void>;
  /** Its floor (bench/readFloors.ts). */
  floor: FloorKind;
}

const posix = (p: string) => p.split(path.sep).join('/');

function shapes(): Shape[] {
  const at = (n: string) => path.join(SHAPES, n);
  return [
    { name: 'harbor-10k', tuned: true, dir: at('harbor-10k'), floor: 'harbor',
      make: async () => { await generateHarborJob(at('harbor-10k'), harborLarge(2500, 4)); } },
    { name: 'nemo-40k', tuned: true, dir: at('nemo-40k'), floor: 'summary',
      make: async () => {
        const r = await generateNemoRun(at('nemo-40k'), nemoLarge(5000, 8, 200));
        const w = await writeRunSummary(new NodeFs(), posix(r.rolloutsPath), { skipped: r.skipped, unvalidated: r.unvalidated });
        if (w.error) throw new Error(w.error);
      } },
    { name: 'viewer-10k', tuned: true, dir: at('viewer-10k'), floor: 'viewer',
      make: async () => { await generateViewerData(at('viewer-10k'), viewerLarge(10000, { models: 2, harnesses: 2, kMax: 2 })); } },
    { name: 'harbor-holes', tuned: false, dir: at('harbor-holes'), floor: 'harbor',
      make: async () => {
        const r = await generateHarborJob(at('harbor-holes'), harborLarge(1000, 2));
        fs.readdirSync(r.jobDir).filter((n) => n.includes('__')).forEach((n, i) => {
          if (i % 2 === 0) for (const sub of ['agent', 'verifier']) fs.rmSync(path.join(r.jobDir, n, sub), { recursive: true, force: true });
        });
      } },
    { name: 'nemo-long', tuned: false, dir: at('nemo-long'), floor: 'rows',
      make: async () => { await generateNemoRun(at('nemo-long'), nemoLarge(400, 4, 40_000)); } },
  ];
}

async function ensure(s: Shape): Promise<void> {
  const done = path.join(s.dir, '.bench-complete');
  if (fs.existsSync(done)) return;
  fs.rmSync(s.dir, { recursive: true, force: true });
  const t = performance.now();
  await s.make();
  fs.writeFileSync(done, '');
  console.log(`  generated ${s.name} in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `inspect --json` in a fresh process: wall time and peak RSS (the process's, worker threads included). */
function cli(dir: string): { ms: number; rssMb: number } {
  const hook = path.join(os.tmpdir(), `harbor-runs-bench-rss-${process.pid}.js`);
  fs.writeFileSync(hook, "process.on('exit', () => process.stderr.write('@@maxrss ' + process.resourceUsage().maxRSS + '\\n'));\n");
  try {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['--require', hook, CLI, 'inspect', dir, '--json'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`inspect exited with ${r.status}: ${r.stderr}`);
    const m = /@@maxrss (\d+)/.exec(r.stderr);
    return { ms, rssMb: m ? Number(m[1]) / 1024 : Number.NaN };
  } finally {
    fs.rmSync(hook, { force: true });
  }
}

/**
 * The floor as its own new process (bench/readFloors.ts): wall time from outside, as `inspect` is timed, and the
 * floor's own time inside it.
 */
function floorProcess(kind: FloorKind, dir: string): { wallMs: number; ms: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [FLOOR_CHILD, kind, dir], { encoding: 'utf8' });
  const wallMs = performance.now() - t;
  if (r.status !== 0) throw new Error(`floor exited with ${r.status}: ${r.stderr}`);
  return { wallMs, ms: (JSON.parse(r.stdout.trim()) as { ms: number }).ms };
}

/**
 * The core reader alone in a fresh process (--core): time, attempts, heap the model keeps per attempt, and the
 * longest its event loop was blocked while reading (what the extension host would feel of the read itself).
 */
function core(dir: string): { ms: number; attempts: number; bytesPerAttempt: number; blockMs: number } {
  const r = spawnSync(process.execPath, ['--expose-gc', SELF, '--core', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`core read exited with ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

async function coreChild(dir: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const t = performance.now();
  const runs = await loadRuns(new NodeFs(), [posix(dir)]);
  const ms = performance.now() - t;
  lag.disable();
  // A turn of the event loop first: collected right after the await, what the read's last promises still hold
  // (the summary document, its text) counted as the model's (14 KiB per NeMo repeat where a heap snapshot says 1.5).
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc?.();
  const kept = process.memoryUsage().heapUsed - before;
  const attempts = runs.reduce((n, r) => n + r.tasks.reduce((m, t) => m + t.attempts.length, 0), 0);
  process.stdout.write(`${JSON.stringify({ ms, attempts, bytesPerAttempt: attempts ? kept / attempts : 0, blockMs: lag.max / 1e6 })}\n`);
  void runs.length;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--core') return coreChild(process.argv[3]);
  const pick = process.argv.slice(2);
  const list = shapes().filter((s) => !pick.length || pick.includes(s.name));
  console.log(`readers at scale: ${ROUNDS} round(s), medians; shapes in ${SHAPES}`);
  const rows: string[][] = [[
    'shape', 'attempts', 'floor ms', 'floor proc ms', 'inspect ms', 'ratio', '(warm)', 'core ms', 'ratio', 'peak RSS',
    'model/attempt', 'core block', 'verdict',
  ]];
  let over = 0;
  for (const s of list) {
    await ensure(s);
    const warm: number[] = [];
    const procs: { wallMs: number; ms: number }[] = [];
    const clis: { ms: number; rssMb: number }[] = [];
    const cores: { ms: number; attempts: number; bytesPerAttempt: number; blockMs: number }[] = [];
    // Untimed, both: every file the floor reads and every file inspect reads in the page cache for every measure
    // (other processes evict them). inspect reads more of each trial than the floor does (config.json, manifest.json,
    // reward files, ctrf.json): warmed by the floor alone, the first timed inspect could read those from disk.
    FLOORS[s.floor](s.dir);
    cli(s.dir);
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      FLOORS[s.floor](s.dir);
      warm.push(performance.now() - t);
      procs.push(floorProcess(s.floor, s.dir));
      clis.push(cli(s.dir));
      cores.push(core(s.dir));
    }
    // The targets compare like with like: inspect (a new process, timed from outside) against the floor as a new
    // process timed from outside; the core reader (timed inside a new process, after its load) against the floor
    // timed inside its new process. The floor timed in this process after an untimed run (warm: its heap already
    // grown and touched) is printed too, as earlier sessions measured it.
    const floorProc = median(procs.map((p) => p.wallMs));
    const floorIn = median(procs.map((p) => p.ms));
    const inspect = median(clis.map((c) => c.ms));
    const coreMs = median(cores.map((c) => c.ms));
    const rss = Math.max(...clis.map((c) => c.rssMb));
    const ok = inspect <= 2 * floorProc && rss <= 256;
    if (s.tuned && !ok) over++;
    rows.push([
      s.name + (s.tuned ? '' : ' (untuned)'), String(cores[0].attempts), median(warm).toFixed(0), floorProc.toFixed(0),
      inspect.toFixed(0), `${(inspect / floorProc).toFixed(2)}×`, `${(inspect / median(warm)).toFixed(2)}×`,
      coreMs.toFixed(0), `${(coreMs / floorIn).toFixed(2)}×`, `${rss.toFixed(0)} MB`,
      `${(median(cores.map((c) => c.bytesPerAttempt)) / 1024).toFixed(2)} KiB`, `${Math.max(...cores.map((c) => c.blockMs)).toFixed(0)} ms`,
      ok ? 'OK' : 'OVER',
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((c, i) => c.padStart(i ? widths[i] : 0).padEnd(i ? 0 : widths[i])).join('  '));
  console.log(over ? `${over} tuned shape(s) over target (inspect ≤ 2× the floor as a process, peak RSS ≤ 256 MB)` : 'OK: every tuned shape within target');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
