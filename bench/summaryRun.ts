// The run shapes of the run-summary benchmarks (bench/summary.bench.ts, bench/writeSummaryWorkbench.bench.ts): a
// NeMo Gym run of N rows of about K KB of plain-text transcript, its materialized inputs, a run config, and one
// verifier folder per row, in one of three shapes:
//   in-place  every verifier folder is where the rows name it
//   moved     the results folder was moved as a whole: the rows (and the run config) name the old root, and only 1 row
//             in 50 names its folder where it is now
//   mixed     a third of the rows name the old root (moved), the rest where the folder is; 1 folder in 97 is gone
import * as fs from 'node:fs';
import * as path from 'node:path';

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

export type Shape = 'in-place' | 'moved' | 'mixed';
export const SHAPES: Shape[] = ['in-place', 'moved', 'mixed'];

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

/** Writes the run into `dir` (the results folder); returns its rollouts file. */
export function generate(dir: string, shape: Shape, rows: number, rowKb: number, repeats: number): string {
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
