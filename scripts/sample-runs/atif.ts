// ATIF-v1.7 trajectories in the Terminus-2 style (docs/formats.md#harbor-job, docs/trajectory-json.md): step 1 is the user prompt, each LLM turn is
// one agent step with bash_command tool calls whose observation sits in the same step, and the run ends with
// mark_task_complete asked and confirmed. Used by both the NeMo Gym and the Harbor generators.
import { Prng, isoOffset, round } from './util';

const COMMANDS: [string, string][] = [
  ['ls -la /app', 'total 12\ndrwxr-xr-x 1 root root 4096 Aug 21 12:00 .\n-rw-r--r-- 1 root root  220 Aug 21 12:00 run.sh'],
  ['cat /app/README.md', '# Task\nFollow the instructions in instruction.md.'],
  ['python3 -m pytest -q /app/tests', '2 passed in 0.04s'],
  ['grep -rn TODO /app', '/app/main.py:12:    # TODO: handle empty input'],
  ['chmod +x /app/run.sh && /app/run.sh', 'OK'],
  ['wc -l < /app/data/input.txt', '42'],
  ['git status', 'On branch master\nnothing to commit, working tree clean'],
  ['make -C /app build', 'make: Entering directory \'/app\'\ncc -O2 -o main main.c\nmake: Leaving directory \'/app\''],
];

export interface TrajectoryOptions {
  sessionId: string;
  trajectoryId?: string;
  /** "provider/model" (agent level); steps carry the model only. */
  modelName: string;
  agentName?: string;
  agentVersion?: string;
  instruction: string;
  /** Agent turns before completion (≥ 1). */
  turns: number;
  /** End with mark_task_complete asked and confirmed (false: the agent was cut off). */
  complete: boolean;
  startSec: number;
  /** Extra filler characters spread over the observations (a big transcript). */
  padBytes?: number;
  /** Terminus-2 prompt template in step 1 (Harbor) or the bare instruction (NeMo Gym's export). */
  fullPrompt?: boolean;
  extra?: Record<string, unknown>;
  rng: Prng;
  /** Cost per token pair, for Harbor; omitted when undefined. */
  withCost?: boolean;
}

export interface TrajectoryTotals {
  prompt: number;
  completion: number;
  cached: number;
  cost: number;
  steps: number;
}

const TEMPLATE = 'You are an AI assistant tasked with solving command-line tasks in a Linux environment. '
  + 'You will be given a task description and the output from previously executed commands.\n\nTask Description:\n';

export function terminusTrajectory(o: TrajectoryOptions): { trajectory: Record<string, unknown>; totals: TrajectoryTotals } {
  const { rng } = o;
  const model = o.modelName.includes('/') ? o.modelName.split('/').slice(1).join('/') : o.modelName;
  const steps: Record<string, unknown>[] = [];
  let t = o.startSec;
  const totals: TrajectoryTotals = { prompt: 0, completion: 0, cached: 0, cost: 0, steps: 0 };
  steps.push({
    step_id: 1,
    timestamp: isoOffset(t),
    source: 'user',
    message: o.fullPrompt
      ? `${TEMPLATE}${o.instruction}\n\nCurrent terminal state:\nroot@sandbox:/app# \n`
      : o.instruction,
  });
  const padPerTurn = o.padBytes ? Math.ceil(o.padBytes / Math.max(1, o.turns)) : 0;
  let prompt = 700 + rng.int(0, 400);
  const agentStep = (message: string, toolCalls: Record<string, unknown>[] | undefined, results: Record<string, unknown>[] | undefined, reasoning?: string) => {
    t += rng.int(5, 20) + rng.next();
    const completion = rng.int(20, 180);
    const cached = steps.length > 2 ? Math.floor(prompt * 0.8) : 0;
    const metrics: Record<string, unknown> = { prompt_tokens: prompt, completion_tokens: completion };
    if (cached) metrics.cached_tokens = cached;
    let cost = 0;
    if (o.withCost) {
      cost = round((prompt - cached) * 3e-6 + cached * 3e-7 + completion * 1.5e-5, 6);
      metrics.cost_usd = cost;
    }
    const step: Record<string, unknown> = {
      step_id: steps.length + 1,
      timestamp: isoOffset(t),
      source: 'agent',
      model_name: model,
      message,
    };
    if (reasoning) step.reasoning_content = reasoning;
    if (toolCalls) step.tool_calls = toolCalls;
    if (results) step.observation = { results };
    step.metrics = metrics;
    steps.push(step);
    totals.prompt += prompt;
    totals.completion += completion;
    totals.cached += cached;
    totals.cost += cost;
    prompt += completion + rng.int(80, 400);
  };
  for (let turn = 0; turn < o.turns; turn++) {
    const nCalls = rng.next() < 0.3 ? 2 : 1;
    const calls: Record<string, unknown>[] = [];
    const outs: string[] = [];
    for (let i = 1; i <= nCalls; i++) {
      const [cmd, out] = rng.pick(COMMANDS);
      calls.push({ tool_call_id: `call_${turn}_${i}`, function_name: 'bash_command', arguments: { keystrokes: `${cmd}\n`, duration: round(0.1 + rng.next() * 2, 1) } });
      outs.push(`root@sandbox:/app# ${cmd}\n${out}`);
    }
    let content = `New Terminal Output:\n\n${outs.join('\n')}\nroot@sandbox:/app# \n`;
    if (padPerTurn) content += padText(rng, padPerTurn);
    // Terminus-2: a batch of several commands shares ONE observation with no source_call_id.
    const results = nCalls === 1 ? [{ source_call_id: calls[0].tool_call_id, content }] : [{ content }];
    agentStep(`Analysis: step ${turn + 1} of the task.\nPlan: run ${calls.map((c) => (c.arguments as { keystrokes: string }).keystrokes.trim()).join(' and ')}.`,
      calls, results, turn === 0 ? 'Start by looking at the current state of the sandbox.' : undefined);
  }
  if (o.complete) {
    const n = o.turns;
    agentStep('Analysis: The task is done.\nPlan: Mark the task complete.',
      [{ tool_call_id: `call_${n}_task_complete`, function_name: 'mark_task_complete', arguments: {} }],
      [{ content: 'Current terminal state:\nNew Terminal Output:\n\nroot@sandbox:/app# \n\nAre you sure you want to mark the task as complete?' }]);
    agentStep('Analysis: Confirmed.\nPlan: No further action needed.',
      [{ tool_call_id: `call_${n + 1}_task_complete`, function_name: 'mark_task_complete', arguments: {} }],
      [{ content: 'New Terminal Output:\n\n' }]);
  }
  totals.steps = steps.length;
  totals.cost = round(totals.cost, 6);
  const final: Record<string, unknown> = {
    total_prompt_tokens: totals.prompt,
    total_completion_tokens: totals.completion,
    total_cached_tokens: totals.cached,
  };
  if (o.withCost) final.total_cost_usd = totals.cost;
  final.total_steps = totals.steps;
  const trajectory: Record<string, unknown> = {
    schema_version: 'ATIF-v1.7',
    session_id: o.sessionId,
  };
  if (o.trajectoryId) trajectory.trajectory_id = o.trajectoryId;
  trajectory.agent = { name: o.agentName ?? 'terminus-2', version: o.agentVersion ?? '2.0.0', model_name: o.modelName };
  trajectory.steps = steps;
  trajectory.final_metrics = final;
  if (o.extra) trajectory.extra = o.extra;
  return { trajectory, totals };
}

function padText(rng: Prng, n: number): string {
  const words = ['drwxr-xr-x', 'root', '4096', 'app', 'log', 'build', 'ok', 'warning:', 'unused', 'variable', 'line'];
  const parts: string[] = [];
  let len = 0;
  while (len < n) {
    const w = rng.pick(words);
    parts.push(w);
    len += w.length + 1;
  }
  return parts.join(' ').slice(0, n);
}
