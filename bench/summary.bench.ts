// `npm run bench:summary` — the run-summary writer on three run shapes, against a Python writer's least work and the
// physical floor, all in one run.
//
//   node out/bench/summary.bench.js [--rows N] [--row-kb K] [--repeats R] [--times T] [--shapes in-place,moved,mixed]
//                                   [--keep] [--dir D [--reuse]]
//
// Shapes (each a NeMo Gym run of N rows of about K KB of plain-text transcript, its materialized inputs, a run config,
// and one verifier folder per row):
//   in-place  every verifier folder is where the rows name it
//   moved     the results folder was moved as a whole: the rows (and the run config) name the old root, and only 1 row
//             in 50 names its folder where it is now
//   mixed     a third of the rows name the old root (moved), the rest where the folder is; 1 folder in 97 is gone
// Measured per shape, in child processes, best of T (wall and CPU time; peak RSS and the longest event-loop block are
// the worst of T):
//   ours    writeRunSummary
//   python  the least a Python writer must do: json.loads each row and os.listdir the verifier folder it names
//   floor   Node reading the file in 4 MiB chunks and counting newlines
// Targets (issue #16): ours ≥ 2× faster than python, ≤ 5× the floor, peak RSS ≤ 256 MB, event loop never blocked
// > 50 ms. Default: the issue's size, 40000 rows × 25 KB ≈ 1 GB per shape; --rows 4000 (or BENCH_SUMMARY_ROWS=4000)
// for a quick run of ≈ 100 MB. The Python peer is bench/summaryPeer.py; without python3 the bench says so and goes on.
import { spawn, spawnSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeRunSummary } from '../src/core/summary';
import { NodeFs } from '../src/core/fs/nodeFs';
import { repoRoot } from '../test/support/paths';

interface Measure { ms: number; cpuMs: number; maxRssMb: number; rows?: number; maxBlockMs?: number; controlBlockMs?: number }

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const has = (name: string) => process.argv.includes(`--${name}`);

// ---------------------------------------------------------------- children

const cpuMs = () => { const u = process.resourceUsage(); return (u.userCPUTime + u.systemCPUTime) / 1000; };

/**
 * An idle Node process at the same priority, watching its own event loop while the writer runs: on a loaded machine
 * the longest delay it sees is the scheduler's, not ours (the writer's longest block is only ours beyond that).
 */
const CONTROL = `const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 5 }); h.enable();
process.stdout.write('ready\\n');
process.stdin.on('end', () => { h.disable(); process.stdout.write(JSON.stringify({ maxMs: h.max / 1e6 }) + '\\n'); process.exit(0); });
process.stdin.resume();`;

async function startControl(): Promise<() => Promise<number | undefined>> {
  const c = spawn(process.execPath, ['-e', CONTROL], { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  c.stdout.setEncoding('utf8');
  await new Promise<void>((resolve) => {
    c.stdout.on('data', (d: string) => { out += d; if (out.includes('ready')) resolve(); });
    c.on('exit', () => resolve());
  });
  return async () => {
    const done = new Promise<void>((resolve) => c.on('exit', () => resolve()));
    c.stdin.end();
    await done;
    const m = /\{.*\}/.exec(out);
    return m ? (JSON.parse(m[0]) as { maxMs: number }).maxMs : undefined;
  };
}

async function childWriter(rollouts: string): Promise<void> {
  const stopControl = await startControl();
  // The longest the event loop was blocked while writing (what an extension host would feel).
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const t0 = process.hrtime.bigint();
  const res = await writeRunSummary(new NodeFs(), rollouts, { beforeDispatch: null });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  lag.disable();
  const maxBlockMs = lag.max / 1e6;
  if (res.error) { process.stderr.write(`${res.error}\n`); process.exit(1); }
  const rows = res.document!.tasks.reduce((n, t) => n + t.repeats.length, 0);
  const cpu = cpuMs();
  const controlBlockMs = await stopControl();
  process.stdout.write(JSON.stringify({ ms, cpuMs: cpu, maxRssMb: process.resourceUsage().maxRSS / 1024, rows, maxBlockMs, controlBlockMs }));
}

/** The physical floor: the file read in 4 MiB chunks, every newline found. */
function childFloor(rollouts: string): void {
  const t0 = process.hrtime.bigint();
  const fd = fs.openSync(rollouts, 'r');
  const chunk = Buffer.allocUnsafe(4 << 20);
  let rows = 0;
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    const buf = n === chunk.length ? chunk : chunk.subarray(0, n);
    for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) rows++;
  }
  fs.closeSync(fd);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(JSON.stringify({ ms, cpuMs: cpuMs(), maxRssMb: process.resourceUsage().maxRSS / 1024, rows }));
}

/** The least any Python writer must do: bench/summaryPeer.py (json.loads each row, os.listdir its verifier folder). */
const PEER = path.join(repoRoot(__dirname), 'bench', 'summaryPeer.py');

/** The python3 to measure the peer with, or why there is none. */
function findPython(): { ok: true; version: string } | { ok: false; why: string } {
  const r = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return { ok: false, why: `python3 is not on PATH (${r.error?.message ?? `exit ${r.status}`})` };
  return { ok: true, version: `${r.stdout || r.stderr}`.trim() };
}

// ---------------------------------------------------------------- generator

const WORDS = 'the agent ran ls -la /app and saw "run.sh" with mode 0644; it tried chmod +x \\ then re-ran: OK ünïcødé → done\n'.split(' ');

function padText(bytes: number, seed: number): string {
  const out: string[] = [];
  let n = 0;
  let i = seed;
  while (n < bytes) {
    const w = WORDS[i++ % WORDS.length];
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}

type Shape = 'in-place' | 'moved' | 'mixed';
const SHAPES: Shape[] = ['in-place', 'moved', 'mixed'];

/** Where row n names its verifier folder (the old root or where it is), and whether the folder is there at all. */
function placement(shape: Shape, n: number): { named: 'old' | 'here'; present: boolean } {
  if (shape === 'in-place') return { named: 'here', present: true };
  if (shape === 'moved') return { named: n % 50 === 0 ? 'here' : 'old', present: true };
  return { named: n % 3 === 0 ? 'old' : 'here', present: n % 97 !== 0 };
}

function resultRow(task: number, repeat: number, dir: string, oldRoot: string, rowBytes: number, where: { named: 'old' | 'here'; present: boolean }): string {
  const sid = `resources-session-${task.toString(16).padStart(16, '0')}${repeat.toString(16).padStart(16, '0')}`;
  const turns = 6;
  const per = Math.max(16, Math.floor((rowBytes - 2500) / (turns * 2 + 1)));
  const row = {
    responses_create_params: {
      input: [{ role: 'user', content: `Task ${task}: ${padText(per, task)}` }],
      metadata: { agent_timeout_sec: '900.0' },
    },
    response: {
      id: `resp_${task}_${repeat}`, created_at: 1787399400, model: 'nvidia/nemotron-3-super-120b', object: 'response',
      output: Array.from({ length: turns }, (_, k) => ({
        id: `msg_${k}`, type: 'message', role: 'assistant', status: 'completed',
        content: [{ type: 'output_text', text: padText(per, task + k), annotations: [] }],
      })),
      parallel_tool_calls: false, tool_choice: 'auto', tools: [], status: 'completed',
      metadata: { terminus2_outcome: 'completed' },
      usage: { input_tokens: 2697, input_tokens_details: { cached_tokens: 0 }, output_tokens: 127, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2824 },
    },
    reward: (task + repeat) % 3 === 0 ? 0.0 : 1.0,
    mask_sample: false,
    failure_kind: null,
    failure_reason: null,
    verifier_rewards: { reward: 1.0 },
    verifier_return_code: 0,
    verifier_logs_dir: `${where.named === 'old' ? oldRoot : dir}/verifier/${sid}`,
    verifier_seconds: 3.1,
    verifier_mode: 'shared',
    ng_agent_observations: null,
    agent_timed_out: false,
    agent_timeout_seconds: 900.0,
    ng_trajectory: {
      task_id: `task-${task}`, rollout_id: `${task}-${repeat}`, invocations: [],
      turns: Array.from({ length: turns }, (_, k) => ({
        invocation_id: 'root', turn_no: k + 1, timestamp: 1787399401.0 + k,
        answer: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: padText(per, task * 7 + k) }] }],
        model_calls: [{ model_call_id: `call-${task}-${repeat}-${k}` }],
      })),
      model_calls: [], tool_calls: [], gaps: [],
    },
    _ng_task_id: { taskset: 'bench', task_id: `task-${task}` },
    _ng_task_index: task,
    _ng_rollout_index: repeat,
    agent_ref: { type: 'responses_api_agents', name: 'harbor_bench_agent' },
    task_source: 'harbor_bench_resources_server',
    _ng_environment_server: 'harbor_bench_environment',
    _ng_result_type: 'single_agent_turn',
  };
  if (where.present) {
    const d = path.join(dir, 'verifier', sid);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'test-stdout.txt'), 'ok\n');
    fs.writeFileSync(path.join(d, 'reward.txt'), `${row.reward}\n`);
  }
  return JSON.stringify(row);
}

function generate(dir: string, shape: Shape, rows: number, rowKb: number, repeats: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const rollouts = path.join(dir, 'rollouts.jsonl');
  // The results root at run time: this folder itself, or (moved, mixed) one that no longer exists.
  const oldRoot = shape === 'in-place' ? dir : path.join(path.dirname(dir), `gone-${shape}`, 'results', 'harbor', 'bench');
  fs.writeFileSync(path.join(dir, 'run_config.yaml'), [
    'harbor_bench_resources_server:', '  resources_servers:', '    harbor:', `      artifacts_dir: ${oldRoot}/verifier`,
    '      tasksets:', '        bench:', `          folder: ${oldRoot}/datasets/bench`,
    '      datasets:', '      - name: bench', '        type: validation', `        jsonl_fpath: ${oldRoot}/tasks.jsonl`,
    'harbor_bench_agent:', '  _inherit_from: terminus_2_sandboxed_agent', '  responses_api_agents:', '    terminus_2_sandboxed_agent:',
    '      num_workers: 1', '',
  ].join('\n'));
  const tasks = Math.ceil(rows / repeats);
  const mat = fs.openSync(path.join(dir, 'rollouts_materialized_inputs.jsonl'), 'w');
  const out = fs.openSync(rollouts, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = () => { if (pending.length) { fs.writeSync(out, pending.join('')); pending = []; pendingBytes = 0; } };
  let n = 0;
  for (let t = 0; t < tasks && n < rows; t++) {
    for (let r = 0; r < repeats && n < rows; r++, n++) {
      fs.writeSync(mat, `${JSON.stringify({
        task_id: { taskset: 'bench', task_id: `task-${t}` },
        task_input: { responses_create_params: { input: [{ role: 'user', content: `Task ${t}` }], metadata: { agent_timeout_sec: '900.0' } },
          task_data: { _ng_digest: `${t}`.padStart(64, '0') } },
        task_source: 'harbor_bench_resources_server', _ng_task_index: t, _ng_rollout_index: r,
      })}\n`);
      const line = `${resultRow(t, r, dir, oldRoot, rowKb * 1024, placement(shape, n))}\n`;
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes > 8 << 20) flush();
    }
  }
  flush();
  fs.closeSync(out);
  fs.closeSync(mat);
  return rollouts;
}

// ---------------------------------------------------------------- parent

function runChild(cmd: string, args: string[]): Measure | undefined {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) {
    process.stderr.write(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.error?.message}\n`);
    return undefined;
  }
  return JSON.parse(r.stdout) as Measure;
}

function best(runs: (Measure | undefined)[]): Measure | undefined {
  const ok = runs.filter((m): m is Measure => !!m);
  if (!ok.length) return undefined;
  const blocks = ok.map((m) => m.maxBlockMs).filter((x): x is number => x !== undefined);
  const control = ok.map((m) => m.controlBlockMs).filter((x): x is number => x !== undefined);
  return { ms: Math.min(...ok.map((m) => m.ms)), cpuMs: Math.min(...ok.map((m) => m.cpuMs)), maxRssMb: Math.max(...ok.map((m) => m.maxRssMb)), rows: ok[0].rows,
    maxBlockMs: blocks.length ? Math.max(...blocks) : undefined, controlBlockMs: control.length ? Math.max(...control) : undefined };
}

interface ShapeResult { shape: Shape; size: number; ours?: Measure; py?: Measure; floor?: Measure }

function measureShape(shape: Shape, rollouts: string, times: number): ShapeResult {
  const self = __filename;
  const ours: (Measure | undefined)[] = [];
  const floor: (Measure | undefined)[] = [];
  const py: (Measure | undefined)[] = [];
  const python = findPython().ok;
  runChild(process.execPath, [self, '--child', 'floor', rollouts]); // warm the page cache
  // Alternate the runs so page-cache effects and the machine's other load hit everyone alike.
  for (let i = 0; i < times; i++) {
    floor.push(runChild(process.execPath, [self, '--child', 'floor', rollouts]));
    ours.push(runChild(process.execPath, [self, '--child', 'writer', rollouts]));
    if (python) py.push(runChild('python3', [PEER, rollouts]));
  }
  return { shape, size: fs.statSync(rollouts).size, ours: best(ours), py: best(py), floor: best(floor) };
}

const sec = (m?: Measure) => (m ? `${(m.ms / 1000).toFixed(2)} s (cpu ${(m.cpuMs / 1000).toFixed(2)})` : 'n/a');

function report(results: ShapeResult[], times: number): void {
  console.log(`\nbest of ${times}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores (wall times need a quiet machine, cpu times less so)`);
  console.log('| shape | ours | Python peer | newline floor | Python / ours | ours / floor | peak RSS | longest block (idle process meanwhile) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const { ours: o, py: p, floor: f } = r;
    const vsPy = o && p ? `${(p.ms / o.ms).toFixed(2)}× (cpu ${(p.cpuMs / o.cpuMs).toFixed(2)}×)` : 'n/a';
    const vsFloor = o && f ? `${(o.ms / f.ms).toFixed(2)}× (cpu ${(o.cpuMs / f.cpuMs).toFixed(2)}×)` : 'n/a';
    console.log(`| ${r.shape} (${(r.size / 1e6).toFixed(0)} MB) | ${sec(o)} | ${sec(p)} | ${sec(f)} | ${vsPy} | ${vsFloor} | `
      + `${o ? `${o.maxRssMb.toFixed(0)} MB` : 'n/a'} | ${o?.maxBlockMs !== undefined ? `${o.maxBlockMs.toFixed(0)} ms` : 'n/a'}`
      + ` (${o?.controlBlockMs !== undefined ? `${o.controlBlockMs.toFixed(0)} ms` : 'n/a'}) |`);
  }
  console.log('\ntargets: Python / ours ≥ 2.00×, ours / floor ≤ 5.00×, peak RSS ≤ 256 MB, longest block ≤ 50 ms');
  for (const r of results) {
    const { ours: o, py: p, floor: f } = r;
    if (!o) { console.log(`${r.shape}: the writer failed`); continue; }
    const checks = [
      p ? `python ${p.ms / o.ms >= 2 ? 'MET' : 'NOT MET'}` : 'python NOT MEASURED (no python3)',
      f ? `floor ${o.ms / f.ms <= 5 ? 'MET' : 'NOT MET'}` : 'floor n/a',
      `rss ${o.maxRssMb <= 256 ? 'MET' : 'NOT MET'}`,
      `block ${o.maxBlockMs !== undefined && o.maxBlockMs <= 50 ? 'MET' : 'NOT MET'}${o.maxBlockMs !== undefined && o.maxBlockMs > 50
        && o.controlBlockMs !== undefined ? ` (an idle process saw ${o.controlBlockMs.toFixed(0)} ms at the same time)` : ''}`,
    ];
    console.log(`${r.shape}: ${checks.join(', ')}`);
  }
}

async function main(): Promise<void> {
  const mode = arg('child');
  if (mode === 'writer') return childWriter(process.argv[process.argv.length - 1]);
  if (mode === 'floor') return childFloor(process.argv[process.argv.length - 1]);

  // The issue's size by default (10,000 tasks × 4 repeats × ~25 KB ≈ 1 GB per shape); --rows or BENCH_SUMMARY_ROWS
  // for a quick run (4000 ≈ 100 MB).
  const rows = Number(arg('rows') ?? process.env.BENCH_SUMMARY_ROWS ?? 40000);
  const rowKb = Number(arg('row-kb') ?? 25);
  const repeats = Number(arg('repeats') ?? 4);
  const times = Number(arg('times') ?? 3);
  const shapes = (arg('shapes') ?? SHAPES.join(',')).split(',').filter((x): x is Shape => (SHAPES as string[]).includes(x));
  const base = arg('dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-bench-summary-'));
  const py = findPython();
  console.log(py.ok ? `Python peer: ${py.version}, ${path.relative(process.cwd(), PEER) || PEER}`
    : `NO PYTHON PEER: ${py.why}. The Python column reads n/a and the "2× faster than Python" target cannot be checked; install python3 to measure it.`);
  const results: ShapeResult[] = [];
  for (const shape of shapes) {
    const dir = path.join(base, shape, 'results', 'harbor', 'bench');
    const g0 = Date.now();
    // --reuse with --dir: measure runs generated earlier (by --keep) instead of generating them again.
    const reuse = has('reuse') && fs.existsSync(path.join(dir, 'rollouts.jsonl'));
    const rollouts = reuse ? path.join(dir, 'rollouts.jsonl') : generate(dir, shape, rows, rowKb, repeats);
    console.log(`${shape}: ${rows} rows × ~${rowKb} KB = ${(fs.statSync(rollouts).size / 1e6).toFixed(1)} MB`
      + ` (${reuse ? 'generated earlier' : `generated in ${((Date.now() - g0) / 1000).toFixed(1)} s`}) in ${dir}`);
    results.push(measureShape(shape, rollouts, times));
  }
  report(results, times);
  if (!has('keep') && !arg('dir')) fs.rmSync(base, { recursive: true, force: true });
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack ?? e}\n`); process.exit(1); });
