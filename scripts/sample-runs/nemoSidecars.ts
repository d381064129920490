// The run-level files around a NeMo Gym rollouts file (docs/formats.md#nemo-gym): aggregate metrics, the
// health check's quality_summary.json and rollout_verdicts.jsonl, the generated run_config.yaml and the data
// processor's <name>_metrics.json.
import { round } from './util';

export interface RowFacts {
  taskIndex: number;
  repeat: number;
  reward: number;
  verifierSeconds: number | null;
  inputTokens: number;
  outputTokens: number;
  hasTrajectory: boolean;
  health: 'healthy' | 'unhealthy' | 'unobserved';
}

function stats(xs: number[]): { mean: number; max: number; min: number; median: number; std: number } {
  if (!xs.length) return { mean: 0, max: 0, min: 0, median: 0, std: 0 };
  const s = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  const std = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean: round(mean), max: s[s.length - 1], min: s[0], median: round(median), std: round(std) };
}

/** `[{agent_ref, agent_metrics, key_metrics, group_level_metrics}]` over the persisted result rows. */
export function aggregateMetrics(agentName: string, rows: RowFacts[], expectedPerTask: Map<number, number>): unknown[] {
  const cols: Record<string, number[]> = {
    reward: rows.map((r) => r.reward),
    verifier_seconds: rows.flatMap((r) => (r.verifierSeconds === null ? [] : [r.verifierSeconds])),
    input_tokens: rows.map((r) => r.inputTokens),
    output_tokens: rows.map((r) => r.outputTokens),
  };
  const agent: Record<string, number> = {};
  const key: Record<string, number> = {};
  for (const stat of ['mean', 'max', 'min', 'median', 'std'] as const) {
    for (const [name, xs] of Object.entries(cols)) {
      agent[`${stat}/${name}`] = stats(xs)[stat];
      if (stat === 'mean') key[`mean/${name}`] = stats(xs).mean;
    }
  }
  const groups = [...expectedPerTask.entries()].sort((a, b) => a[0] - b[0]).map(([taskIndex, expected]) => {
    const mine = rows.filter((r) => r.taskIndex === taskIndex);
    return {
      _ng_task_index: taskIndex,
      'mean/reward': round(mine.length ? mine.reduce((a, r) => a + r.reward, 0) / mine.length : 0),
      num_rollouts: mine.length,
      expected_num_rollouts: expected,
      missing_num_rollouts: expected - mine.length,
    };
  });
  return [{ agent_ref: { name: agentName }, agent_metrics: agent, key_metrics: key, group_level_metrics: groups }];
}

const ROLLOUT_CHECKS = ['rollout_missing_agent_turns', 'agent_turn_hollow', 'model_call_zero_completion_tokens',
  'model_call_missing_token_counts', 'trajectory_capture_mismatch', 'model_call_last_failed',
  'rollout_token_count_mismatch', 'model_call_runaway_generation'];
const RECORD_CHECKS = ['check_execution_error', 'record_unreadable', 'rollout_duplicate_identity'];
const TASK_CHECKS = ['task_consistently_unhealthy', 'task_no_successful_model_calls'];

export function verdictRow(r: RowFacts): Record<string, unknown> {
  return {
    _ng_task_index: r.taskIndex,
    _ng_rollout_index: r.repeat,
    rollout_id: `${r.taskIndex}-${r.repeat}`,
    verdict: r.health,
    findings: r.health === 'unhealthy'
      ? [{ check: 'agent_turn_hollow', locator: { turn: 2 }, detail: { reason: 'agent turn carried no message, reasoning or tool call' } }]
      : [],
    unobserved: r.health === 'unobserved' ? [...ROLLOUT_CHECKS] : [],
  };
}

/** quality_summary.json: {run, tasks}, with `run.rollouts` naming the rollouts it was computed from (seed). */
export function qualitySummary(rolloutsName: string, rows: RowFacts[]): Record<string, unknown> {
  const n = rows.length;
  const observed = rows.filter((r) => r.health !== 'unobserved').length;
  const byTask = new Map<number, RowFacts[]>();
  for (const r of rows) byTask.set(r.taskIndex, [...(byTask.get(r.taskIndex) ?? []), r]);
  const tasksObserved = [...byTask.values()].filter((rs) => rs.some((r) => r.health !== 'unobserved')).length;
  const coverage: Record<string, unknown> = {};
  for (const c of RECORD_CHECKS) coverage[c] = { evaluated: n, unobserved: 0, ignored: 0 };
  for (const c of ROLLOUT_CHECKS) coverage[c] = { evaluated: observed, unobserved: n - observed, ignored: 0 };
  for (const c of TASK_CHECKS) coverage[c] = { evaluated: tasksObserved, unobserved: byTask.size - tasksObserved, ignored: 0 };
  const issues: Record<string, number> = {};
  for (const c of [...RECORD_CHECKS, ...ROLLOUT_CHECKS, ...TASK_CHECKS]) issues[c] = 0;
  issues.agent_turn_hollow = rows.filter((r) => r.health === 'unhealthy').length;
  const prompt = rows.reduce((a, r) => a + r.inputTokens, 0);
  const completion = rows.reduce((a, r) => a + r.outputTokens, 0);
  const tasks: Record<string, unknown> = {};
  for (const [ti, rs] of [...byTask.entries()].sort((a, b) => a[0] - b[0])) {
    tasks[String(ti)] = {
      repeats: rs.length,
      healthy: rs.filter((r) => r.health === 'healthy').length,
      unhealthy: rs.filter((r) => r.health === 'unhealthy').length,
      unobserved: rs.filter((r) => r.health === 'unobserved').length,
      flags: [],
    };
  }
  return {
    run: {
      rollouts: [rolloutsName],
      ignored_checks: [],
      artifacts: { records: n, captures: rows.filter((r) => r.hasTrajectory).length, coverage },
      verdicts: {
        healthy: rows.filter((r) => r.health === 'healthy').length,
        unhealthy: rows.filter((r) => r.health === 'unhealthy').length,
        unobserved: rows.filter((r) => r.health === 'unobserved').length,
      },
      issues,
      stats: {
        model_call_errors: { total: 0, by_status: {}, rollouts_affected: 0, ended_on_error: 0 },
        duplicated_calls: { replayed: 0, rollouts: 0 },
        tokens: { prompt, completion, capture_prompt: Math.round(prompt * 0.93), capture_completion: Math.round(completion * 0.91) },
      },
    },
    tasks,
  };
}

/** The data processor's <name>_metrics.json (rows sidecar and collated <split>_metrics.json share the shape). */
export function datasetMetrics(taskset: string, split: string, rowsPath: string, nExamples: number): Record<string, unknown> {
  const zero = { 'Total # non-null values': 0, Average: 0.0, Min: 0.0, Max: 0.0, 'Standard deviation': 0.0 };
  return {
    name: taskset,
    type: split,
    jsonl_fpath: rowsPath,
    num_repeats: 1,
    gitlab_identifier: null,
    huggingface_identifier: null,
    license: 'TBD',
    'Number of examples': nExamples,
    'Number of tools': zero,
    'Json-dumped number of words (proxy for token count)': { 'Total # non-null values': nExamples, Average: 30.0, Min: 24.0, Max: 36.0, 'Standard deviation': 3.1 },
    'Number of turns': { 'Total # non-null values': nExamples, Average: 1.0, Min: 1.0, Max: 1.0, 'Standard deviation': 0.0 },
    Temperature: zero,
  };
}

/** run_config.yaml as `build_run` writes it (artifacts_dir = <rows folder>/verifier, absolute). */
export function runConfigYaml(o: { taskset: string; root: string; datasetFolder: string; agent: string; digests: [string, string][]; split: string }): string {
  const ts = o.taskset;
  const lines = [
    'environment_routing_mode: taskset',
    'environment_server_routes:',
    `  ${ts}: harbor_${ts}_environment`,
    `harbor_${ts}_resources_server:`,
    '  resources_servers:',
    '    harbor:',
    '      entrypoint: app.py',
    '      sandbox_provider: sandbox',
    `      artifacts_dir: ${o.root}/verifier`,
    '      tasksets:',
    `        ${ts}:`,
    `          folder: ${o.datasetFolder}`,
    '          tasks:',
    ...o.digests.map(([id, d]) => `            ${id}: ${d}`),
    '      datasets:',
    `      - name: ${ts}`,
    `        type: ${o.split}`,
    '        license: TBD',
    `        jsonl_fpath: ${o.root}/tasks.jsonl`,
    `harbor_${ts}_agent:`,
    `  _inherit_from: ${o.agent}`,
    '  responses_api_agents:',
    `    ${o.agent}:`,
    '      resources_server:',
    '        type: resources_servers',
    `        name: harbor_${ts}_resources_server`,
    '      num_workers: 1',
    `harbor_${ts}_environment:`,
    '  _inherit_from: single_agent_turn',
    '  environment_servers:',
    '    single_agent_turn:',
    '      resources_server:',
    '        type: resources_servers',
    `        name: harbor_${ts}_resources_server`,
    '      agent_server:',
    '        type: responses_api_agents',
    `        name: harbor_${ts}_agent`,
  ];
  return lines.join('\n') + '\n';
}
