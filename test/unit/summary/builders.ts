// Small, exact builders of NeMo Gym run folders for the rule tests: every name is deterministic (verifier folder of
// task i repeat r = `verifier/s-<i>-<r>`), so the tests' golden documents can be written by hand.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import type { LineOutcome } from '../../../src/core/summary/lineOutcome';

export const T0 = 1787400000; // rollouts.jsonl mtime (seconds)

export interface MiniRepeat {
  outcome: 'scored' | 'masked' | 'failed' | 'missing';
  reward?: number;
  mode?: 'shared' | 'separate';
  /** present (default for scored): folder with `files`; absent: named but gone; none: verifier_logs_dir null. */
  folder?: 'present' | 'absent' | 'none';
  /** Files in the folder; default test-stdout.txt, reward.txt, trajectory.json. 'artifacts/' makes the folder. */
  files?: string[];
  failureKind?: string | null;
  failureReason?: string | null;
  taskSource?: string;
  /** The row also carries a big transcript of about this many bytes. */
  padBytes?: number;
}

export interface MiniTask { id: string; repeats: MiniRepeat[]; timeout?: string; turns?: string[] }

export interface MiniRun {
  tasks: MiniTask[];
  stem?: string;
  taskset?: string;
  /** Absolute root the rows and run config name (a folder moved as a whole); default the folder itself. */
  originalRoot?: string;
  /** Write the materialized inputs (default true). */
  materialized?: boolean;
  runConfig?: boolean;
  /** tasks.jsonl (+ _prepare, _metrics), the collated input and its metrics (default true). */
  prepared?: boolean;
  /** aggregate metrics mtime relative to T0 (seconds); null: none. Default +2. */
  aggregate?: number | null;
  /** quality_summary.json: run.rollouts record (default [stem.jsonl]); 'none': no record; 'garbage': not JSON; null: no reports. */
  health?: string[] | 'none' | 'garbage' | null;
  healthMtime?: number;
  taskSource?: string;
  /** Extra raw lines appended to rollouts.jsonl after row `after` (1-based rows written before it). */
  badLine?: { after: number; text: string };
}

export function mkdirp(d: string): void { fs.mkdirSync(d, { recursive: true }); }

function write(p: string, text: string, mtime?: number): string {
  mkdirp(path.dirname(p));
  fs.writeFileSync(p, text);
  if (mtime !== undefined) fs.utimesSync(p, mtime, mtime);
  return p;
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
export const digestOf = (id: string) => `d-${id}`;

export function taskInput(t: MiniTask): Record<string, unknown> {
  const rcp = (meta: Record<string, string>) => ({ input: [{ role: 'user', content: `solve ${t.id}` }], metadata: meta });
  return {
    responses_create_params: t.turns ? t.turns.map((turn) => rcp({ agent_timeout_sec: t.timeout ?? '900.0', turn }))
      : rcp({ agent_timeout_sec: t.timeout ?? '900.0' }),
    task_data: { _ng_digest: digestOf(t.id) },
  };
}

/** Builds the run in `dir`; returns the absolute rollouts path. */
export function buildRun(dir: string, spec: MiniRun): string {
  const stem = spec.stem ?? 'rollouts';
  const ts = spec.taskset ?? 'mini';
  const root = spec.originalRoot ?? dir;
  const source = spec.taskSource ?? `harbor_${ts}_resources_server`;
  mkdirp(dir);
  const rollouts = path.join(dir, `${stem}.jsonl`);
  const prepared = spec.tasks.map((t) => ({ task_id: { taskset: ts, task_id: t.id }, task_input: taskInput(t) }));
  if (spec.prepared ?? true) {
    write(path.join(dir, 'tasks.jsonl'), jsonl(prepared), T0 - 300);
    write(path.join(dir, 'tasks_prepare.jsonl'), jsonl(prepared.map((p) => ({ ...p, task_source: source }))), T0 - 290);
    write(path.join(dir, 'tasks_metrics.json'), '{"name": "x"}\n', T0 - 290);
    write(path.join(dir, stem, 'preprocessed_datasets', 'validation.jsonl'), jsonl(prepared.map((p) => ({ ...p, task_source: source }))), T0 - 280);
    write(path.join(dir, stem, 'preprocessed_datasets', 'validation_metrics.json'), '{}\n', T0 - 280);
  }
  if (spec.runConfig) {
    write(path.join(dir, 'run_config.yaml'), [
      `harbor_${ts}_resources_server:`, '  resources_servers:', '    harbor:',
      `      artifacts_dir: ${root}/verifier`, '      tasksets:', `        ${ts}:`, `          folder: ${root}/datasets/${ts}`,
      '          tasks:', ...spec.tasks.map((t) => `            ${t.id}: ${digestOf(t.id)}`),
      '      datasets:', `      - name: ${ts}`, '        type: validation', `        jsonl_fpath: ${root}/tasks.jsonl`,
      `harbor_${ts}_agent:`, '  _inherit_from: terminus_2_sandboxed_agent', '  responses_api_agents:',
      '    terminus_2_sandboxed_agent:', '      num_workers: 1', '',
    ].join('\n'), T0 - 285);
  }
  if (spec.materialized ?? true) {
    const rows: unknown[] = [];
    spec.tasks.forEach((t, i) => t.repeats.forEach((_, r) => rows.push({
      ...prepared[i], task_source: source, _ng_task_index: i, _ng_rollout_index: r,
    })));
    write(path.join(dir, `${stem}_materialized_inputs.jsonl`), jsonl(rows), T0 - 200);
  }
  const results: string[] = [];
  const failures: unknown[] = [];
  spec.tasks.forEach((t, i) => t.repeats.forEach((rep, r) => {
    const ids = { _ng_task_id: { taskset: ts, task_id: t.id }, _ng_task_index: i, _ng_rollout_index: r, task_source: rep.taskSource ?? source };
    if (rep.outcome === 'missing') return;
    if (rep.outcome === 'failed') {
      failures.push({ ...ids, _ng_failure_class: 'environment_server_failed', _ng_failure_terminal: false,
        _ng_failure_message: rep.failureReason ?? 'sandbox did not start', _ng_failure_stage: 'seed' });
      return;
    }
    const folder = rep.folder ?? (rep.outcome === 'masked' ? 'none' : 'present');
    const sid = `s-${i}-${r}`;
    if (folder === 'present') {
      for (const f of rep.files ?? ['test-stdout.txt', 'reward.txt', 'trajectory.json']) {
        if (f.endsWith('/')) mkdirp(path.join(dir, 'verifier', sid, f));
        else write(path.join(dir, 'verifier', sid, f), f === 'reward.txt' ? `${rep.reward ?? 1}\n` : '{}\n');
      }
      mkdirp(path.join(dir, 'verifier', sid));
    }
    const pad = rep.padBytes ? 'x'.repeat(rep.padBytes) : '';
    results.push(JSON.stringify({
      responses_create_params: { input: [{ role: 'user', content: `solve ${t.id} ${pad}` }], metadata: { agent_timeout_sec: t.timeout ?? '900.0' } },
      response: { output: [{ type: 'message', content: [{ type: 'output_text', text: `done "quoted" \\ ${pad}` }] }] },
      reward: rep.outcome === 'masked' ? 0.0 : rep.reward ?? 1.0,
      mask_sample: rep.outcome === 'masked',
      failure_kind: rep.failureKind ?? null,
      failure_reason: rep.failureReason ?? null,
      verifier_logs_dir: folder === 'none' ? null : `${root}/verifier/${sid}`,
      verifier_mode: rep.mode ?? 'shared',
      ng_trajectory: { turns: [{ answer: pad }] },
      ...ids,
    }));
  }));
  if (spec.badLine) results.splice(spec.badLine.after, 0, spec.badLine.text);
  write(rollouts, results.map((l) => `${l}\n`).join(''), T0);
  if (failures.length) write(path.join(dir, `${stem}_failures.jsonl`), jsonl(failures), T0 - 5);
  const agg = spec.aggregate === undefined ? 2 : spec.aggregate;
  if (agg !== null) write(path.join(dir, `${stem}_aggregate_metrics.json`), '[]\n', T0 + agg);
  const health = spec.health === undefined ? [`${stem}.jsonl`] : spec.health;
  if (health !== null) {
    const text = health === 'garbage' ? '{"run": {"rollouts": [' : JSON.stringify({ run: health === 'none' ? {} : { rollouts: health }, tasks: {} });
    write(path.join(dir, 'quality_summary.json'), text, T0 + (spec.healthMtime ?? 5));
    write(path.join(dir, 'rollout_verdicts.jsonl'), '{"_ng_task_index": 0, "_ng_rollout_index": 0, "verdict": "healthy"}\n', T0 + (spec.healthMtime ?? 5));
  }
  return rollouts;
}

/** The repeat entry of a repeat with no row (rule 5), input as the builders write it. */
/**
 * Pads the first row of a rollouts file so that the file is `size` bytes to the byte (its times kept): the writer's
 * thresholds (16 MiB for row workers, a chunk of 4 MiB) are checked at their exact edge.
 */
export function padRolloutsTo(rollouts: string, size: number): void {
  const { atime, mtime } = fs.statSync(rollouts);
  const lines = fs.readFileSync(rollouts, 'utf8').split('\n').slice(0, -1);
  const rest = lines.slice(1).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  const row = JSON.parse(lines[0]) as Record<string, unknown>;
  const bare = Buffer.byteLength(JSON.stringify({ ...row, pad: '' })) + 1;
  lines[0] = JSON.stringify({ ...row, pad: 'x'.repeat(size - rest - bare) });
  fs.writeFileSync(rollouts, lines.map((l) => `${l}\n`).join(''));
  fs.utimesSync(rollouts, atime, mtime);
}

export function missingEntry(t: MiniTask, repeat: number): Record<string, unknown> {
  return {
    repeat, outcome: 'missing', reward: null, mask_sample: null, failure_kind: null, failure_reason: null, verifier_mode: null,
    verifier_logs: null, test_stdout: null, reward_file: null, trajectory: null, artifacts: null, missing: [],
    input: inputEntry(t),
  };
}

export function inputEntry(t: MiniTask): Record<string, unknown> {
  const meta = (turn?: string) => (turn === undefined ? { agent_timeout_sec: t.timeout ?? '900.0' } : { agent_timeout_sec: t.timeout ?? '900.0', turn });
  return { digests: { _ng_digest: digestOf(t.id) }, metadata: t.turns ? t.turns.map((x) => meta(x)) : [meta()] };
}

/** `n` rows of exactly 48 bytes each (newline included): chunks of 96 bytes end on a line's end. */
export function rowsOf48Bytes(n: number): string {
  return Array.from({ length: n }, (_, i) => { const t = JSON.stringify({ _ng_task_id: `t${i}`, reward: 1 }); return `${t}${' '.repeat(47 - t.length)}\n`; }).join('');
}

/** Node's port counting the chunks read sequentially (`reads()`). */
export function countingReads(): { port: FsPort; reads: () => number } {
  const node = new NodeFs();
  let reads = 0;
  // Not nodeLocal: its reads are counted, so no row worker may read the file itself (parallelFileRows.ts).
  const port = Object.assign(Object.create(node) as FsPort, {
    nodeLocal: false,
    openSequential: async (p: string) => {
      const r = await node.openSequential!(p);
      return { read: async (b: Uint8Array) => { const n = await r.read(b); if (n) reads++; return n; }, close: () => r.close() };
    },
  });
  return { port, reads: () => reads };
}

/** f()'s value once it has not changed for `quietMs` (waiting at most 20 s). */
export async function settled(f: () => number, quietMs = 300, atLeast = 0): Promise<number> {
  let last = f();
  let since = Date.now();
  const t0 = Date.now();
  // (`atLeast`: the count expected, waited for before the quiet spell counts: on a loaded machine a worker can be
  // off its core for longer than quietMs between two reads, and the count read early.)
  while ((last < atLeast || Date.now() - since < quietMs) && Date.now() - t0 < 20_000) {
    await new Promise((r) => setTimeout(r, 20));
    const v = f();
    if (v !== last) { last = v; since = Date.now(); }
  }
  return last;
}

/** Calls a recorder saw, in order. */
export type Call = unknown[];
/** ParallelLineHandlers that write down every call. */
export function recorder(calls: Call[]) {
  return {
    onOutcome: (o: LineOutcome, line: number, terminated: boolean) => { calls.push(['line', line, terminated, o.row?._ng_task_id]); },
    onLongLine: (line: number, bytes: number) => { calls.push(['long', line, bytes]); },
    onBytes: (n: number) => { calls.push(['bytes', n]); },
    afterChunk: () => { calls.push(['chunk']); return undefined; },
  };
}

/** A small PRNG, so a failing file can be made again from its seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

/** Lines of every kind the scanner meets: rows, blanks, CRLF, broken JSON, bytes that are not UTF-8, a BOM, long ones. */
export function randomFile(seed: number): Buffer {
  const r = rng(seed);
  const parts: Buffer[] = [];
  if (r() < 0.5) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const n = 5 + Math.floor(r() * 40);
  for (let i = 0; i < n; i++) {
    const x = r();
    const text = 'x'.repeat(Math.floor(r() * 300));
    const row = JSON.stringify({ _ng_task_id: { taskset: 's', task_id: `t${i}` }, _ng_rollout_index: i % 3, reward: r() < 0.2 ? null : i,
      response: { output: [{ text: `"quoted" \\ ${text} é` }] }, verifier_logs_dir: `/v/${i}`, responses_create_params: { metadata: { a: i } } });
    let line: Buffer;
    if (x < 0.55) line = Buffer.from(row);
    else if (x < 0.62) line = Buffer.from('');
    else if (x < 0.68) line = Buffer.from('  \t ');
    else if (x < 0.75) line = Buffer.from(row.slice(0, Math.floor(row.length / 2)));
    else if (x < 0.8) line = Buffer.concat([Buffer.from(row.slice(0, 40)), Buffer.from([0xff, 0xfe]), Buffer.from(row.slice(40))]);
    else if (x < 0.85) line = Buffer.from(`${row}\r`);
    else if (x < 0.9) line = Buffer.from(`{"_ng_task_id": "t${i}", "reward": 1e400, "_ng_rollout_index": 0}`);
    else line = Buffer.from(`[${row}]`);
    parts.push(line);
    if (i < n - 1 || r() < 0.6) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}
