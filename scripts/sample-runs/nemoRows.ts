// NeMo Gym rows (docs/formats.md#nemo-gym): the prepared / materialized input rows, the result row of rollouts.jsonl,
// the failures-sidecar row, and one verification's log folder (docs/formats.md#nemo-gym-verification: test-stdout.txt, reward file, ctrf.json, the
// ATIF trajectory.json and, in separate mode, artifacts/ in the host_path layout).
import * as path from 'node:path';
import type { NemoRepeatSpec } from './nemoSpec';
import { instructionFor } from './nemoSpec';
import { terminusTrajectory } from './atif';
import { Prng, filler, mkdirp, round, writeJson, writeText } from './util';

export const MODEL = 'nvidia/nemotron-3-super-120b';

export interface TaskCtx {
  taskset: string;
  taskId: string;
  taskIndex: number;
  digest: string;
  timeoutSec: number;
  turns: number;
  names: { agent: string; resources: string; environment: string };
}

export function preparedRow(t: TaskCtx): Record<string, unknown> {
  return {
    task_id: { taskset: t.taskset, task_id: t.taskId },
    task_input: {
      responses_create_params: {
        input: [{ role: 'user', content: instructionFor(t.taskId) }],
        metadata: { agent_timeout_sec: t.timeoutSec.toFixed(1) },
      },
      task_data: { _ng_digest: t.digest },
    },
  };
}

export function materializedRow(t: TaskCtx, repeat: number): Record<string, unknown> {
  return {
    ...preparedRow(t),
    task_source: t.names.resources,
    _ng_task_index: t.taskIndex,
    _ng_rollout_index: repeat,
    _ng_environment_server: t.names.environment,
    agent_ref: { type: 'responses_api_agents', name: t.names.agent },
  };
}

function stamps(t: TaskCtx, repeat: number): Record<string, unknown> {
  return {
    _ng_task_id: { taskset: t.taskset, task_id: t.taskId },
    _ng_task_index: t.taskIndex,
    _ng_rollout_index: repeat,
    agent_ref: { type: 'responses_api_agents', name: t.names.agent },
    task_source: t.names.resources,
    _ng_environment_server: t.names.environment,
    _ng_result_type: 'single_agent_turn',
  };
}

export function failureRow(t: TaskCtx, repeat: number, r: NemoRepeatSpec): Record<string, unknown> {
  const s = stamps(t, repeat);
  return {
    _ng_task_id: s._ng_task_id,
    _ng_failure_class: r.failureClass ?? 'environment_server_failed',
    _ng_failure_terminal: r.failureTerminal ?? false,
    _ng_failure_message: r.failureReason ?? `Could not start sandbox for '${t.taskId}'`,
    _ng_failure_stage: r.failureStage ?? 'seed',
    _ng_task_index: t.taskIndex,
    _ng_rollout_index: repeat,
    agent_ref: s.agent_ref,
    task_source: s.task_source,
    _ng_environment_server: s._ng_environment_server,
    _ng_result_type: s._ng_result_type,
  };
}

/** The canonical TrajectoryRecord a row carries as ng_trajectory (task_id, rollout_id, turns, model_calls, …). */
function ngTrajectory(t: TaskCtx, repeat: number, rng: Prng, startSec: number, pad: number): Record<string, unknown> {
  const rid = `${t.taskIndex}-${repeat}`;
  const turns: Record<string, unknown>[] = [];
  const calls: Record<string, unknown>[] = [];
  const padPer = pad ? Math.ceil(pad / t.turns) : 0;
  for (let i = 1; i <= t.turns; i++) {
    const id = `call-${rid}-${i}`;
    const text = `step ${i}` + (padPer ? ` ${filler(rng, padPer)}` : '');
    turns.push({ invocation_id: 'root', task_id: t.taskId, rollout_id: rid, turn_no: i, timestamp: startSec + i, question: null,
      answer: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }],
      reasoning_content: null, step_count: i - 1, model_calls: [{ model_call_id: id }] });
    calls.push({ model_call_id: id, started_at: startSec + i, completed_at: startSec + i + 2.5, duration_ms: 2500.0, request: null, response: null,
      response_metadata: { response_id: `chatcmpl-${rid}-${i}`, model_ref: { type: 'responses_api_models', name: 'policy_model' },
        status_code: 200, response_status: 'completed', finish_reason: 'stop' },
      token_stats: { prompt_tokens: 700 + rng.int(0, 400), completion_tokens: rng.int(20, 140) } });
  }
  return { task_id: t.taskId, rollout_id: rid, invocations: [], turns, model_calls: calls, tool_calls: [], gaps: [] };
}

export interface RowOptions {
  verifierLogsDir: string | null;
  rewards: Record<string, number> | null;
  startSec: number;
  rng: Prng;
}

/** A result row of rollouts.jsonl (scored or masked). */
export function resultRow(t: TaskCtx, repeat: number, r: NemoRepeatSpec, o: RowOptions): Record<string, unknown> {
  const masked = r.outcome === 'masked';
  const reward = masked ? 0.0 : (r.reward ?? 1.0);
  const { rng } = o;
  const input = 800 + rng.int(0, 2000);
  const output = 40 + rng.int(0, 120);
  const pad = r.transcriptBytes ?? 0;
  const outText = r.agentTimedOut ? 'Agent timed out before marking the task complete.' : 'Done: the task is complete.';
  const row: Record<string, unknown> = {
    responses_create_params: {
      input: [{ role: 'user', content: instructionFor(t.taskId) }],
      metadata: { agent_timeout_sec: t.timeoutSec.toFixed(1) },
    },
    response: {
      id: `resp_${rng.hex(32)}`, created_at: Math.floor(o.startSec), model: MODEL, object: 'response',
      output: [{ id: `msg_${rng.hex(32)}`, type: 'message', role: 'assistant', status: 'completed',
        content: [{ type: 'output_text', text: pad ? `${outText} ${filler(rng, Math.floor(pad / 2))}` : outText, annotations: [] }] }],
      parallel_tool_calls: false, tool_choice: 'auto', tools: [], status: 'completed',
      metadata: r.agentTimedOut ? { terminus2_outcome: 'agent_timeout', terminus2_error_type: 'AgentTimeoutError' } : { terminus2_outcome: 'completed' },
      usage: { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output,
        output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output },
    },
    reward,
    mask_sample: masked,
    failure_kind: r.failureKind ?? null,
    failure_reason: r.failureReason ?? null,
    verifier_rewards: o.rewards,
    verifier_return_code: o.verifierLogsDir === null || r.failureKind === 'harbor:verifier_timeout' ? null : reward >= 1 ? 0 : 1,
    verifier_logs_dir: o.verifierLogsDir,
    verifier_seconds: o.verifierLogsDir === null ? null : round(2 + rng.next() * 8, 1),
    verifier_mode: r.verifierMode ?? 'shared',
    ng_agent_observations: null,
    agent_timed_out: r.agentTimedOut ?? false,
    agent_timeout_seconds: t.timeoutSec,
  };
  // A masked row whose sandbox was lost carries no trajectory record: the health check cannot observe it.
  if (!(masked && (r.health ?? 'unobserved') === 'unobserved' && o.verifierLogsDir === null)) {
    row.ng_trajectory = ngTrajectory(t, repeat, rng, o.startSec, pad ? Math.ceil(pad / 2) : 0);
  }
  return { ...row, ...stamps(t, repeat) };
}

/** The rewards the verifier parsed (verifier_rewards), or null when no reward file was read. */
export function rewardsFor(r: NemoRepeatSpec): Record<string, number> | null {
  if (r.outcome !== 'scored') return null;
  const file = rewardFileKind(r);
  if (file === null || r.failureKind === 'harbor:invalid_reward' || r.failureKind === 'harbor:verifier_timeout') return null;
  const reward = r.reward ?? 1.0;
  return file === 'json' ? { reward, [`check_${reward >= 1 ? 'passed' : 'failed'}`]: reward } : { reward };
}

export function rewardFileKind(r: NemoRepeatSpec): 'txt' | 'json' | null {
  if (r.rewardFile !== undefined) return r.rewardFile;
  if (r.failureKind === 'harbor:missing_reward' || r.failureKind === 'harbor:verifier_timeout') return null;
  if (r.outcome === 'masked') return null;
  return 'txt';
}

export function verifierFolderKind(r: NemoRepeatSpec): 'present' | 'absent' | 'none' {
  if (r.verifierFolder) return r.verifierFolder;
  if (r.outcome === 'masked' || r.outcome === 'failed' || r.outcome === 'missing') return 'none';
  return 'present';
}

/** Writes one verification's log folder; returns the files written (absolute). */
export function writeVerifierFolder(dir: string, sessionId: string, t: TaskCtx, repeat: number, r: NemoRepeatSpec, rng: Prng, startSec: number): string[] {
  mkdirp(dir);
  const files: string[] = [];
  const reward = r.reward ?? 1.0;
  const passed = r.outcome === 'scored' && reward >= 1;
  const failed = typeof r.ctrf === 'object' ? r.ctrf.failed : passed ? [] : ['tests/test_outputs.py::test_outputs'];
  let stdout: string;
  if (r.failureKind === 'harbor:missing_reward') stdout = (r.failureReason?.split('tail: ')[1] ?? 'bash: /tests/run.sh: No such file or directory\n');
  else if (r.failureKind === 'harbor:verifier_timeout') stdout = 'collected 48 items\n\ntests/test_outputs.py ........................\n';
  else {
    const n = failed.length + 1;
    stdout = '============================= test session starts ==============================\n'
      + `collected ${n} items\n\n`
      + `tests/test_outputs.py::test_setup PASSED${' '.repeat(30)}[${Math.round(100 / n)}%]\n`
      + failed.map((f) => `${f} FAILED\n`).join('')
      + (failed.length ? `=========================== short test summary info ============================\n${failed.map((f) => `FAILED ${f} - AssertionError\n`).join('')}` : '')
      + `========================= ${failed.length ? `${failed.length} failed, ` : ''}1 passed in 0.0${rng.int(2, 9)}s ==========================\n`;
  }
  files.push(writeText(path.join(dir, 'test-stdout.txt'), stdout));
  const kind = rewardFileKind(r);
  if (kind === 'txt') {
    files.push(writeText(path.join(dir, 'reward.txt'), r.failureKind === 'harbor:invalid_reward' ? 'PASSED\n' : `${reward >= 1 ? 1 : reward}\n`));
  } else if (kind === 'json') {
    files.push(writeJson(path.join(dir, 'reward.json'), rewardsFor({ ...r, rewardFile: 'json' }) ?? { reward }));
  }
  if (r.ctrf) {
    const tests = [{ name: 'tests/test_outputs.py::test_setup', status: 'passed', duration: 12 },
      ...failed.map((name) => ({ name, status: 'failed', duration: 9, message: 'AssertionError' }))];
    files.push(writeJson(path.join(dir, 'ctrf.json'), { results: { tool: { name: 'pytest' },
      summary: { tests: tests.length, passed: tests.length - failed.length, failed: failed.length }, tests } }));
  }
  if (r.trajectory ?? true) {
    const { trajectory } = terminusTrajectory({
      sessionId, trajectoryId: `${t.taskIndex}-${repeat}`, modelName: MODEL, instruction: instructionFor(t.taskId),
      turns: t.turns, complete: !r.agentTimedOut, startSec, rng,
      extra: { nemo_gym: { taskset: t.taskset, task_id: t.taskId, _ng_task_index: t.taskIndex, _ng_rollout_index: repeat } },
    });
    files.push(writeJson(path.join(dir, 'trajectory.json'), trajectory));
  }
  const separate = (r.verifierMode ?? 'shared') === 'separate';
  if (r.artifacts ?? separate) {
    // host_path = destination or source.lstrip("/"): /logs/artifacts/x lands in artifacts/logs/artifacts/x.
    if (passed) {
      files.push(writeText(path.join(dir, 'artifacts', 'logs', 'artifacts', 'result.txt'), `${rng.int(10, 99)}\n`));
      files.push(writeText(path.join(dir, 'artifacts', 'app', 'out', 'summary.txt'), `task=${t.taskId} repeat=${repeat}\n`));
    } else {
      files.push(writeText(path.join(dir, 'artifacts', 'logs', 'artifacts', 'agent-notes.txt'), 'no output produced\n'));
    }
  }
  return files;
}
