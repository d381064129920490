// What a generated Harbor job folder holds, as a spec: its trials, each by case (docs/formats.md#harbor-exceptions).
// `harborEveryCase()` has one trial of every case plus several attempts per task for pass@k; `harborLarge()` sizes
// a job for benchmarks.

export type HarborTrialCase =
  /** reward.txt 1, clean exit. */
  | 'passed'
  /** reward.txt 0, ctrf.json lists the failing test. */
  | 'failed'
  /** reward.json with several keys, a partial score (default {reward: 0.5, …}; `rewards` for other shapes). */
  | 'partial'
  /** AgentTimeoutError recorded and the verifier still scored it (verifier_result present). */
  | 'agent-timeout-with-reward'
  /** NonZeroAgentExitCodeError recorded and the verifier still scored it. */
  | 'nonzero-exit-with-reward'
  /** ContextLengthExceededError (Terminus-2 without summarization): no verifier. */
  | 'context-length'
  /** EnvironmentStartTimeoutError: no agent, no verifier result. */
  | 'environment-failure'
  /** The verifier ran and wrote no reward file: RewardFileNotFoundError, verifier_result null. */
  | 'reward-file-not-found'
  /** Still running: config.json (and lock.json) only; the job has not finished. */
  | 'running'
  /** CancelledError: result.json still written, counted in n_cancelled_trials. */
  | 'cancelled'
  /** Multi-step task: steps/<name>/{agent,verifier,artifacts} and step_results. */
  | 'multi-step'
  /** Passed, but agent/trajectory.json (which the agent writes and trial.log names) is absent. */
  | 'trajectory-absent';

export const HARBOR_CASES: readonly HarborTrialCase[] = [
  'passed', 'failed', 'partial', 'agent-timeout-with-reward', 'nonzero-exit-with-reward', 'context-length',
  'environment-failure', 'reward-file-not-found', 'running', 'cancelled', 'multi-step', 'trajectory-absent',
];

export interface HarborTrialSpec {
  /** Task directory name (the trial is `<task>__<7 chars>`). */
  task: string;
  case: HarborTrialCase;
  /** Override the primary reward of a scored case. */
  reward?: number;
  /** The whole reward.json of a 'partial' trial (e.g. rewardkit's {"correctness": 0.75, "quality": 0.9}, no `reward` key). */
  rewards?: Record<string, number>;
  /** Agent turns in the trajectory (default 3). */
  turns?: number;
  /** Another agent than the job's (e.g. an installed CLI agent for a non-zero exit). */
  agent?: { name: string; version?: string; model?: string };
  /** Extra characters spread over the trajectory's observations. */
  transcriptBytes?: number;
  /** Seeds the trajectory on its own: two trials with the same seed run the same steps for as many turns as both have. */
  trajectorySeed?: string;
  /**
   * The agent wrote its own verifier/reward.json (these rewards) beside the verifier's reward.txt: Harbor reads
   * reward.json first, so the result records the agent's rewards while reward.txt holds the verifier's `reward`.
   */
  agentRewardJson?: Record<string, number>;
  /** verifier/reward-details.json (rewardkit's per-criterion details, with an LLM judge and a nested group). */
  rewardDetails?: boolean;
}

export interface HarborJobSpec {
  /** Default "2026-08-21__14-03-11" (the job_name format, local time). */
  jobName?: string;
  agent?: string;
  agentVersion?: string;
  /** "provider/model". */
  model?: string;
  /** Dataset name (`source`), e.g. "terminal-bench/terminal-bench-2". */
  dataset?: string;
  trials: HarborTrialSpec[];
  /** The absolute jobs dir recorded in trial_uri and logs (simulates a folder moved as a whole). */
  originalJobsDir?: string;
  /** Job start, epoch seconds (default 2026-08-21T12:03:11Z). */
  startSec?: number;
  /** Whether the job finished (finished_at set). Default: false when any trial is running, else true. */
  finished?: boolean;
}

/** One trial of every case, and three attempts of two tasks for pass@k. */
export function harborEveryCase(): HarborJobSpec {
  return {
    jobName: '2026-08-21__14-03-11',
    agent: 'terminus-2',
    model: 'anthropic/claude-sonnet-4-5',
    dataset: 'terminal-bench/terminal-bench-2',
    originalJobsDir: '/home/user/projects/jobs',
    trials: [
      { task: 'fix-git', case: 'passed' },
      { task: 'fix-git', case: 'failed' },
      { task: 'fix-git', case: 'passed', turns: 2 },
      { task: 'regex-log', case: 'failed' },
      { task: 'regex-log', case: 'failed', turns: 4 },
      { task: 'regex-log', case: 'agent-timeout-with-reward' },
      { task: 'log-summary', case: 'partial' },
      { task: 'write-docs', case: 'partial', rewards: { correctness: 0.75, quality: 0.9 } },
      { task: 'cobol-modernization', case: 'nonzero-exit-with-reward', agent: { name: 'claude-code', version: '2.1.3', model: 'anthropic/claude-sonnet-4-5' } },
      { task: 'large-scale-text-editing', case: 'context-length', turns: 6 },
      { task: 'build-cython-ext', case: 'environment-failure' },
      { task: 'sqlite-with-gcov', case: 'reward-file-not-found' },
      { task: 'count-dataset-tokens', case: 'running' },
      { task: 'chess-best-move', case: 'cancelled' },
      { task: 'multi-step-refactor', case: 'multi-step' },
      { task: 'hello-world', case: 'trajectory-absent' },
      // Reward provenance: an agent-written reward.json that disagrees with the verifier's reward.txt, and a
      // rewardkit trial with its reward-details.json.
      { task: 'fix-permissions', case: 'failed', reward: 0, agentRewardJson: { reward: 1 } },
      { task: 'grade-essay', case: 'partial', rewards: { correctness: 0.75, quality: 0.9 }, rewardDetails: true },
    ],
  };
}

/** A finished job of `nTasks` tasks × `attempts`, mostly passed / failed with every error case sprinkled in. */
export function harborLarge(nTasks: number, attempts: number): HarborJobSpec {
  const trials: HarborTrialSpec[] = [];
  const rare: HarborTrialCase[] = ['agent-timeout-with-reward', 'environment-failure', 'reward-file-not-found', 'context-length',
    'partial', 'nonzero-exit-with-reward', 'cancelled', 'multi-step', 'trajectory-absent'];
  for (let i = 0; i < nTasks; i++) {
    for (let a = 0; a < attempts; a++) {
      const k = i * attempts + a;
      const c: HarborTrialCase = k % 23 === 11 ? rare[Math.floor(k / 23) % rare.length] : (i * 5 + a * 3) % 7 < 3 ? 'passed' : 'failed';
      trials.push({ task: `task-${String(i).padStart(5, '0')}`, case: c, turns: 3 });
    }
  }
  return { jobName: '2026-09-01__08-00-00', trials, finished: true };
}
