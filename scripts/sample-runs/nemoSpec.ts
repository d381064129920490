// What a generated NeMo Gym run folder holds, as a spec: per task and repeat, how the repeat ended and which
// evidence is on disk. `nemoEveryCase()` covers every case of the NeMo Gym sample's README table and more;
// `nemoLarge()` sizes a run for benchmarks.

export interface NemoRepeatSpec {
  /** scored: a result row with a reward; masked: a result row with mask_sample true; failed: a failures-sidecar row;
   *  missing: no row at all (the materialized input names it). */
  outcome: 'scored' | 'masked' | 'failed' | 'missing';
  /** The row's reward (scored: default 1.0; masked: always 0.0). */
  reward?: number;
  verifierMode?: 'shared' | 'separate';
  /** present: the row names a folder that exists; absent: it names one that is gone; none: verifier_logs_dir null. */
  verifierFolder?: 'present' | 'absent' | 'none';
  /** Which reward file the folder holds (default txt; json when the reward has several keys; null: none). */
  rewardFile?: 'txt' | 'json' | null;
  /** ATIF trajectory.json in the folder (default true). */
  trajectory?: boolean;
  /** ctrf.json in the folder; `{failed}` names the failing tests. */
  ctrf?: boolean | { failed: string[] };
  /** artifacts/ in the folder (default: true in separate mode). */
  artifacts?: boolean;
  failureKind?: string | null;
  failureReason?: string | null;
  /** Failures sidecar: _ng_failure_class / _ng_failure_stage / _ng_failure_terminal. */
  failureClass?: string;
  failureStage?: string;
  failureTerminal?: boolean;
  agentTimedOut?: boolean;
  /** The health check's verdict for this row (default healthy, unobserved for a row without a trajectory record). */
  health?: 'healthy' | 'unhealthy' | 'unobserved';
  /** Size the row's transcript (response output + ng_trajectory) to about this many bytes. */
  transcriptBytes?: number;
}

export interface NemoRunSpec {
  /** The rollouts file's stem (default "rollouts"). */
  stem?: string;
  taskset: string;
  /** The --agent harness (default terminus_2_sandboxed_agent; oracle_agent for a validate). */
  agent?: string;
  /** The task target as given (default harbor:<taskset>@1.0). */
  target?: string;
  /** The collector's split (default validation). */
  split?: string;
  tasks: { id: string; repeats: NemoRepeatSpec[]; turns?: number }[];
  /** Tasks that did not load at prepare time, with the reason (no rows anywhere). */
  skipped?: Record<string, string>;
  /** Absolute root recorded in rows / run_config (simulates a folder moved as a whole). Default: the folder itself. */
  originalRoot?: string;
  /** Write the health check's quality_summary.json and rollout_verdicts.jsonl (default true). */
  health?: boolean;
  /** fresh: at least as new as the rollouts; stale: older (an earlier run's); none: not written. Default fresh. */
  aggregateMetrics?: 'fresh' | 'stale' | 'none';
  /** The outputs are an earlier run's: a <stem>_signatures.json taken before dispatch still matches them. */
  staleOutputs?: boolean;
  /** The run reused the prepared input: no tasks_metrics.json (files.rows_metrics null). */
  reusedPreparedInput?: boolean;
  /** A `gym dataset validate` where no task has a solution/: only tasks.jsonl, every task unvalidated. */
  validateNoSolution?: boolean;
  /** The run wrote no rollouts (nor failures, materialized inputs, metrics or health reports). */
  noRollouts?: boolean;
  /** The rollouts file's last line is cut off without a newline (a run still writing). */
  partialLastLine?: boolean;
  /** 1-based line numbers of the rollouts file that hold garbage instead of a row (inserted there). */
  badLines?: number[];
}

const HELLO = 'Create a file named hello.txt in /app that contains exactly "Hello, world!" followed by a newline.';

export const INSTRUCTIONS: Record<string, string> = {
  'hello-world': HELLO,
  'fix-permissions': "Running /app/run.sh fails with 'Permission denied'. Fix it so that `/app/run.sh` prints OK.",
  'count-lines': 'Count the lines of /app/data/input.txt and write the number to /logs/artifacts/line_count.txt.',
  'parse-csv': 'Sum the `amount` column of /app/sales.csv and write the total to /app/total.txt.',
  'slow-tests': 'Optimise /app/solver.py so that the test suite finishes.',
  'long-build': 'Build the C extension in /app/ext and make `python3 -c "import ext"` work.',
  'flaky-net': 'Download the dataset listed in /app/SOURCES and verify its checksum.',
  'bad-reward': 'Write the answer to /app/answer.txt.',
};

export function instructionFor(taskId: string): string {
  return INSTRUCTIONS[taskId] ?? `Solve the task "${taskId}": follow /app/instruction.md and leave the result in /app/out.`;
}

/** One run with every case of the NeMo Gym sample's table, and more. */
export function nemoEveryCase(): NemoRunSpec {
  return {
    taskset: 'tb-mini',
    target: 'harbor:tb-mini@1.0',
    tasks: [
      // Scored 1.0 twice with the shared verifier; r0 also has ctrf.json.
      { id: 'hello-world', turns: 2, repeats: [
        { outcome: 'scored', reward: 1.0, ctrf: true },
        { outcome: 'scored', reward: 1.0 },
      ] },
      // r0: the tests failed (measured 0.0); r1: scored, but its verifier folder is gone; the health check flags it.
      { id: 'fix-permissions', repeats: [
        { outcome: 'scored', reward: 0.0, ctrf: { failed: ['tests/test_outputs.py::test_prints_ok'] } },
        { outcome: 'scored', reward: 1.0, verifierFolder: 'absent', health: 'unhealthy' },
      ] },
      // Separate verifier: r0 with a two-key reward.json and artifacts/; r1 wrote no reward file and no trajectory.
      { id: 'count-lines', repeats: [
        { outcome: 'scored', reward: 1.0, verifierMode: 'separate', rewardFile: 'json' },
        { outcome: 'scored', reward: 0.0, verifierMode: 'separate', rewardFile: null, trajectory: false,
          failureKind: 'harbor:missing_reward',
          failureReason: 'no reward.json or reward.txt was written; tail: bash: /app/data/input.txt: No such file or directory\n' },
      ] },
      // r0: the sandbox never started (failures sidecar); r1: masked, test.sh never ran.
      { id: 'parse-csv', repeats: [
        { outcome: 'failed', failureClass: 'environment_server_failed', failureStage: 'seed', failureTerminal: false,
          failureReason: '503, message="Could not start sandbox for \'parse-csv\': ProviderError: image pull timed out after 900s"' },
        { outcome: 'masked', failureKind: 'provider_unavailable', verifierFolder: 'none', health: 'unobserved',
          failureReason: 'ProviderError: sandbox lost during upload of tests/ (connection reset)' },
      ] },
      // The verifier timed out (measured 0.0, folder still named); the agent timed out and still scored.
      { id: 'slow-tests', turns: 4, repeats: [
        { outcome: 'scored', reward: 0.0, failureKind: 'harbor:verifier_timeout',
          failureReason: 'test.sh exceeded 600s; tail: collected 48 items\n' },
        { outcome: 'scored', reward: 1.0, agentTimedOut: true },
      ] },
      // An agent-side failure that stopped retries (terminal), and a repeat the run never produced (no row at all).
      { id: 'long-build', repeats: [
        { outcome: 'failed', failureClass: 'agent_run_error', failureStage: 'agent', failureTerminal: true,
          failureReason: 'agent run failed: model server returned 500 three times' },
        { outcome: 'missing' },
      ] },
      // Masked by a verifier error with the folder present; an unparsable reward file.
      { id: 'bad-reward', repeats: [
        { outcome: 'masked', failureKind: 'verifier_error', verifierFolder: 'present', rewardFile: null, trajectory: true,
          failureReason: 'DownloadVerifierDirError: could not download /logs/verifier' },
        { outcome: 'scored', reward: 0.0, failureKind: 'harbor:invalid_reward', rewardFile: 'txt',
          failureReason: "could not parse reward.txt: 'PASSED'" },
      ] },
    ],
    skipped: { 'broken-task': 'broken-task: instruction.md is missing' },
    health: true,
    aggregateMetrics: 'fresh',
  };
}

/** A big run: `nTasks` tasks × `repeats`, each row's transcript about `transcriptBytes`; a mix of outcomes. */
export function nemoLarge(nTasks: number, repeats: number, transcriptBytes: number): NemoRunSpec {
  const tasks: NemoRunSpec['tasks'] = [];
  for (let i = 0; i < nTasks; i++) {
    const reps: NemoRepeatSpec[] = [];
    for (let r = 0; r < repeats; r++) {
      const k = i * repeats + r;
      if (k % 97 === 13) reps.push({ outcome: 'failed', failureClass: 'environment_server_failed', failureStage: 'seed', failureReason: 'sandbox did not start' });
      else if (k % 53 === 7) reps.push({ outcome: 'masked', failureKind: 'provider_unavailable', verifierFolder: 'none', health: 'unobserved', transcriptBytes });
      else if (k % 211 === 5) reps.push({ outcome: 'scored', reward: 1.0, verifierFolder: 'absent', transcriptBytes });
      else reps.push({ outcome: 'scored', reward: (i * 7 + r * 3) % 5 < 2 ? 1.0 : 0.0, verifierMode: k % 9 === 0 ? 'separate' : 'shared', transcriptBytes });
    }
    tasks.push({ id: `task-${String(i).padStart(5, '0')}`, repeats: reps, turns: 3 });
  }
  return { taskset: 'tb-large', tasks, skipped: { 'task-broken': 'task-broken: task.toml is missing' }, health: true, aggregateMetrics: 'fresh' };
}
