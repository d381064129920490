// Writes a NeMo Gym run of an environment other than Harbor's (a game or a math server, as NeMo Gym's own blackjack
// example): rows that name no task id, only the collector's `_ng_task_index` and `_ng_rollout_index`, with a reward of
// -1, 0 or 1, `terminated` / `truncated` flags and the environment's `info`; the materialized inputs and the aggregate
// metrics NeMo Gym writes beside them. No verifier folders: such environments score in the resources server.
// Deterministic: same options → same bytes. The expected reading comes back with the files.
import * as path from 'node:path';
import { prngFor, writeJson, writeJsonl } from './util';

export interface EnvironmentRunOptions {
  tasks: number;
  repeats: number;
  seed?: number;
  /** The rollouts file's stem (`<stem>.jsonl`). */
  stem?: string;
}

export interface EnvironmentRunResult {
  rolloutsPath: string;
  /** Per task index, the rewards of its repeats in repeat order (what a reader must show). */
  rewards: number[][];
}

const AGENT = { type: 'responses_api_agents', name: 'blackjack_gymnasium_agent' };

export function writeEnvironmentRun(dir: string, o: EnvironmentRunOptions): EnvironmentRunResult {
  const rng = prngFor(o.seed ?? 11, 'environment');
  const stem = o.stem ?? 'env_rollouts';
  const input = (task: number) => ({ input: [{ role: 'user', type: 'message', content: `Deal ${task}: hit or stand?` }] });
  const inputs: Record<string, unknown>[] = [];
  const rows: Record<string, unknown>[] = [];
  const rewards: number[][] = [];
  for (let t = 0; t < o.tasks; t++) {
    rewards.push([]);
    for (let r = 0; r < o.repeats; r++) {
      inputs.push({ responses_create_params: input(t), agent_ref: AGENT, _ng_task_index: t, _ng_rollout_index: r });
      const reward = rng.pick([-1, 0, 1]);
      rewards[t].push(reward);
      rows.push({
        responses_create_params: input(t),
        response: { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '<action>stand</action>' }] }] },
        reward, terminated: true, truncated: false, info: { result: reward > 0 ? 'win' : reward < 0 ? 'bust' : 'push' },
        _ng_task_index: t, _ng_rollout_index: r, agent_ref: AGENT,
      });
    }
  }
  // The collector writes rows as they finish, not in schedule order.
  for (let i = rows.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  const rolloutsPath = path.join(dir, `${stem}.jsonl`);
  writeJsonl(path.join(dir, `${stem}_materialized_inputs.jsonl`), inputs);
  writeJsonl(rolloutsPath, rows);
  const all = rewards.flat();
  writeJson(path.join(dir, `${stem}_aggregate_metrics.json`), [{
    agent_ref: { name: AGENT.name },
    agent_metrics: { 'mean/reward': all.reduce((a, b) => a + b, 0) / Math.max(1, all.length) },
  }]);
  return { rolloutsPath, rewards };
}
