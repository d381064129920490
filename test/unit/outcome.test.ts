// The one classification of Harbor trials and NeMo Gym repeats: one row per rule of docs/formats.md#outcomes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Outcome } from '../../src/core/model';
import {
  classifyMissingResult, classifyNemoRepeat, classifyTrial, exceptionCategory, nemoRepeatInput, type NemoRepeatInput,
} from '../../src/core/outcome';

const T0 = '2026-08-21T12:00:00.000000Z';
const T1 = '2026-08-21T12:05:00.000000Z';
const timing = { started_at: T0, finished_at: T1 };

/** A minimal TrialResult as Harbor writes it; `over` replaces top-level fields. */
function trial(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '00000000-0000-0000-0000-000000000001',
    task_name: 'demo/task',
    trial_name: 'task__abc1234',
    trial_uri: 'file:///jobs/j/task__abc1234',
    task_id: { path: 'tasks/task' },
    source: null,
    task_checksum: 'abc',
    config: { trial_name: 'task__abc1234', agent: { name: 'terminus-2' } },
    agent_info: { name: 'terminus-2', version: '2.0.0', model_info: { name: 'm', provider: 'p' } },
    agent_result: { n_input_tokens: 10, n_cache_tokens: 0, n_output_tokens: 5, cost_usd: 0.01, rollout_details: null, metadata: null },
    verifier_result: null,
    exception_info: null,
    started_at: T0,
    finished_at: T1,
    environment_setup: timing,
    agent_setup: timing,
    agent_execution: timing,
    verifier: null,
    step_results: null,
    ...over,
  };
}

const ex = (type: string, message = `${type} happened`) => ({
  exception_type: type, exception_message: message, exception_traceback: 'Traceback …', occurred_at: T1,
});
const scored = (rewards: Record<string, unknown>) => ({ verifier_result: { rewards }, verifier: timing });
/** An exception raised in the agent phase, after which the verifier still ran and scored `reward`. */
const errScored = (type: string, reward: number) => trial({ exception_info: ex(type), ...scored({ reward }) });
/** An exception that aborted the trial: no verifier. */
const errAborted = (type: string, message?: string, over: Record<string, unknown> = {}) =>
  trial({ exception_info: ex(type, message), verifier_result: null, ...over });

interface Row {
  name: string;
  result: unknown;
  jobFinished?: boolean;
  outcome: Outcome;
  reward: number | null;
  exceptionType?: string;
  where?: string;
}

const API_ERRORS = [
  'ApiRateLimitError', 'ApiUsageLimitError', 'ApiInternalServerError', 'ApiOverloadedError', 'ApiConnectionClosedError',
  'ApiResponseStalledError', 'UnknownApiError', 'ApiProviderResourceNotFoundError', 'AgentSafetyRefusalError',
];
const ENVIRONMENT_ERRORS = [
  'EnvironmentStartTimeoutError', 'HealthcheckError', 'SandboxBuildFailedError', 'ServiceOperationsUnsupportedError',
  'GKEExecStreamClosedError', 'MemoryLimitExceededError', 'VercelScopeError',
];
const VERIFIER_ERRORS = [
  'VerifierTimeoutError', 'RewardFileNotFoundError', 'RewardFileEmptyError', 'VerifierOutputParseError',
  'AddTestsDirError', 'DownloadVerifierDirError',
];

const rows: Row[] = [
  // -- no exception: the verifier decides
  { name: 'COMPLETED, reward 1 → passed', result: trial(scored({ reward: 1 })), outcome: 'passed', reward: 1 },
  { name: 'COMPLETED, reward 0 → failed', result: trial(scored({ reward: 0 })), outcome: 'failed', reward: 0 },
  { name: 'COMPLETED, partial reward 0.5 → failed (below PASS_THRESHOLD)', result: trial(scored({ reward: 0.5 })), outcome: 'failed', reward: 0.5 },
  { name: 'reward.json with a reward key and others → primary is rewards.reward', result: trial(scored({ reward: 1, code_lines: 3 })), outcome: 'passed', reward: 1 },
  { name: 'reward.json with one key not named reward → that key', result: trial(scored({ correctness: 1 })), outcome: 'passed', reward: 1 },
  { name: 'reward.json with several keys, none named reward → no primary: no-result', result: trial(scored({ correctness: 0.75, quality: 0.9 })), outcome: 'no-result', reward: null },
  { name: 'verifier disabled (verifier_result null, no exception) → no-result', result: trial(), outcome: 'no-result', reward: null },
  { name: 'verifier_result with rewards null → no-result', result: trial({ verifier_result: { rewards: null } }), outcome: 'no-result', reward: null },
  { name: 'install-only (no agent_result, no verifier) → no-result', result: trial({ agent_result: null, agent_execution: null }), outcome: 'no-result', reward: null },

  // -- agent timeout: caught, verifier still runs
  { name: 'AgentTimeoutError + reward 1 → truncated, reward kept', result: errScored('AgentTimeoutError', 1), outcome: 'truncated', reward: 1, exceptionType: 'AgentTimeoutError', where: 'trial' },
  { name: 'AgentTimeoutError + reward 0 → truncated 0', result: errScored('AgentTimeoutError', 0), outcome: 'truncated', reward: 0, exceptionType: 'AgentTimeoutError' },
  { name: 'AgentTimeoutError, verifier did not score → truncated, reward null', result: errAborted('AgentTimeoutError'), outcome: 'truncated', reward: null },

  // -- agent CLI exited non-zero: verifier still runs
  { name: 'NonZeroAgentExitCodeError + reward 0 → agent-error 0', result: errScored('NonZeroAgentExitCodeError', 0), outcome: 'agent-error', reward: 0 },
  { name: 'NonZeroAgentExitCodeError + reward 1 → agent-error 1 (scored despite an error)', result: errScored('NonZeroAgentExitCodeError', 1), outcome: 'agent-error', reward: 1 },
  { name: 'NonZeroAgentExitCodeError, verifier gave no reward → infra-error (no score)', result: errAborted('NonZeroAgentExitCodeError'), outcome: 'infra-error', reward: null },
  { name: 'NonZeroAgentExitCodeError raised in agent setup (agent_execution null) → infra-error', result: errAborted('NonZeroAgentExitCodeError', 'install exited 1', { agent_execution: null, agent_result: null }), outcome: 'infra-error', reward: null },

  // -- provider / API errors (ApiError subclasses)
  ...API_ERRORS.map((t): Row => ({ name: `${t} + reward → agent-error`, result: errScored(t, 0), outcome: 'agent-error', reward: 0, exceptionType: t })),
  ...API_ERRORS.map((t): Row => ({ name: `${t} without a score → infra-error`, result: errAborted(t), outcome: 'infra-error', reward: null })),

  // -- context / output length
  { name: 'ContextWindowExceededError (installed agent, verifier ran) → truncated with reward', result: errScored('ContextWindowExceededError', 0), outcome: 'truncated', reward: 0 },
  { name: 'ContextLengthExceededError (LiteLLM agent, no verifier) → truncated, reward null', result: errAborted('ContextLengthExceededError'), outcome: 'truncated', reward: null },
  { name: 'OutputTokenExceededError (installed agent, verifier ran) → truncated with reward', result: errScored('OutputTokenExceededError', 1), outcome: 'truncated', reward: 1 },
  { name: 'OutputLengthExceededError (no verifier) → truncated, reward null', result: errAborted('OutputLengthExceededError'), outcome: 'truncated', reward: null },

  // -- auth / model, network
  { name: 'AgentAuthenticationError + reward → agent-error', result: errScored('AgentAuthenticationError', 0), outcome: 'agent-error', reward: 0 },
  { name: 'ModelNotFoundError + reward → agent-error', result: errScored('ModelNotFoundError', 0), outcome: 'agent-error', reward: 0 },
  { name: 'NetworkConnectionError + reward → agent-error', result: errScored('NetworkConnectionError', 0), outcome: 'agent-error', reward: 0 },

  // -- agent setup: no verifier
  { name: 'AgentSetupTimeoutError → infra-error', result: errAborted('AgentSetupTimeoutError', 'setup timed out', { agent_execution: null }), outcome: 'infra-error', reward: null },
  { name: 'RuntimeError("Agent install failed: …") → infra-error', result: errAborted('RuntimeError', 'Agent install failed: exit 2', { agent_execution: null }), outcome: 'infra-error', reward: null },

  // -- environment / sandbox: no verifier
  ...ENVIRONMENT_ERRORS.map((t): Row => ({ name: `${t} → infra-error`, result: errAborted(t, undefined, { agent_result: null, agent_execution: null }), outcome: 'infra-error', reward: null, exceptionType: t })),
  { name: 'RuntimeError("Docker compose command failed …") → infra-error', result: errAborted('RuntimeError', 'Docker compose command failed for environment x'), outcome: 'infra-error', reward: null },

  // -- verifier failures: no score
  ...VERIFIER_ERRORS.map((t): Row => ({ name: `${t} → infra-error`, result: errAborted(t, undefined, { verifier: timing }), outcome: 'infra-error', reward: null, exceptionType: t })),

  // -- cancelled
  { name: 'CancelledError → cancelled', result: errAborted('CancelledError', ''), outcome: 'cancelled', reward: null, exceptionType: 'CancelledError' },

  // -- exceptions of unknown type
  { name: 'unknown exception type with a score → agent-error (scored despite an error)', result: errScored('SomeNewError', 1), outcome: 'agent-error', reward: 1 },
  { name: 'unknown exception type without a score → infra-error', result: errAborted('SomeNewError'), outcome: 'infra-error', reward: null },

  // -- multi-step: step exceptions decide when the trial-level one is null
  {
    name: 'multi-step, step 2 agent timed out, aggregate reward 0.5 → truncated 0.5, where = step name',
    result: trial({
      ...scored({ reward: 0.5 }),
      step_results: [
        { step_name: 'one', verifier_result: { rewards: { reward: 1 } }, exception_info: null },
        { step_name: 'two', verifier_result: { rewards: { reward: 0 } }, exception_info: ex('AgentTimeoutError') },
      ],
    }),
    outcome: 'truncated', reward: 0.5, exceptionType: 'AgentTimeoutError', where: 'two',
  },
  {
    name: 'multi-step, no exceptions, aggregate reward 1 → passed',
    result: trial({ ...scored({ reward: 1 }), step_results: [{ step_name: 'one', verifier_result: { rewards: { reward: 1 } } }] }),
    outcome: 'passed', reward: 1,
  },
  {
    name: 'multi-step, a step raised an unknown error and was still scored → agent-error',
    result: trial({ ...scored({ reward: 0 }), step_results: [{ step_name: 's', verifier_result: { rewards: { reward: 0 } }, exception_info: ex('RuntimeError', 'boom') }] }),
    outcome: 'agent-error', reward: 0, exceptionType: 'RuntimeError', where: 's',
  },
  {
    name: 'multi-step, the trial-level exception wins over a step exception',
    result: trial({
      exception_info: ex('CancelledError'),
      step_results: [{ step_name: 's', exception_info: ex('AgentTimeoutError') }],
    }),
    outcome: 'cancelled', reward: null, exceptionType: 'CancelledError', where: 'trial',
  },

  // -- a result whose fields have the wrong JSON types: nothing in it can be trusted to score
  { name: 'reward as a string → infra-error', result: trial(scored({ reward: '1' })), outcome: 'infra-error', reward: null },
  { name: 'rewards as a list → infra-error', result: trial({ verifier_result: { rewards: [1] } }), outcome: 'infra-error', reward: null },
  { name: 'exception_type as a number → infra-error', result: trial({ exception_info: { exception_type: 7 } }), outcome: 'infra-error', reward: null },
  { name: 'started_at as a number → infra-error', result: trial({ ...scored({ reward: 1 }), started_at: 12 }), outcome: 'infra-error', reward: null },
  { name: 'step_results as an object → infra-error', result: trial({ ...scored({ reward: 1 }), step_results: { a: 1 } }), outcome: 'infra-error', reward: null },
  { name: 'result is a list → infra-error', result: [1, 2], outcome: 'infra-error', reward: null },
  { name: 'result is a string → infra-error', result: 'oops', outcome: 'infra-error', reward: null },

  // -- no result at all
  { name: 'no result, job still running → running', result: undefined, jobFinished: false, outcome: 'running', reward: null },
  { name: 'no result, job finished → incomplete', result: undefined, jobFinished: true, outcome: 'incomplete', reward: null },
];

for (const row of rows) {
  test(`classifyTrial: ${row.name}`, () => {
    const c = classifyTrial(row.result, { jobFinished: row.jobFinished ?? true });
    assert.equal(c.outcome, row.outcome);
    assert.equal(c.reward, row.reward);
    if (row.exceptionType) assert.equal(c.exception?.type, row.exceptionType);
    if (row.where) assert.equal(c.exception?.where, row.where);
  });
}

test('classifyTrial keeps every reward key and reports step summaries', () => {
  const c = classifyTrial(trial({
    ...scored({ reward: 1, code_lines: 3 }),
    step_results: [{ step_name: 'a', verifier_result: { rewards: { reward: 1 } } }, { step_name: 'b', exception_info: ex('AgentTimeoutError') }],
  }), { jobFinished: true });
  assert.deepEqual(c.rewards, { reward: 1, code_lines: 3 });
  assert.deepEqual(c.steps?.map((s) => [s.name, s.reward, s.exception?.type ?? null]), [['a', 1, null], ['b', null, 'AgentTimeoutError']]);
});

test('classifyTrial names the wrongly typed field', () => {
  const c = classifyTrial(trial(scored({ reward: '1' })), { jobFinished: true });
  assert.deepEqual(c.invalid?.path, ['verifier_result', 'rewards', 'reward']);
  assert.equal(c.outcome, 'infra-error');
  assert.equal(c.exception?.type, 'InvalidResult');
  assert.match(c.exception?.message ?? '', /^result\.json has a field of the wrong type: /);
});

test('classifyTrial: a result.json that is not a JSON object (number, string, array) is infra-error, said so, no reward', () => {
  for (const result of [42, 'passed', [], [{ verifier_result: { rewards: { reward: 1 } } }]]) {
    assert.deepEqual(classifyTrial(result, { jobFinished: true }), {
      outcome: 'infra-error', reward: null, rewards: null, invalid: { message: 'result is not a JSON object', path: [] },
    }, JSON.stringify(result));
  }
});

test('classifyTrial: no result.json content (undefined or null) is running while the job runs, incomplete after', () => {
  for (const result of [undefined, null]) {
    assert.deepEqual(classifyTrial(result, { jobFinished: false }), { outcome: 'running', reward: null, rewards: null });
    assert.deepEqual(classifyTrial(result, { jobFinished: true }), { outcome: 'incomplete', reward: null, rewards: null });
  }
});

test('classifyTrial: an exception without a message is summarised with an empty message', () => {
  const c = classifyTrial(trial({ exception_info: { exception_type: 'AgentTimeoutError' } }), { jobFinished: true });
  assert.equal(c.exception?.type, 'AgentTimeoutError');
  assert.equal(c.exception?.message, '');
});

test('classifyMissingResult: running while the job runs, incomplete after', () => {
  assert.equal(classifyMissingResult(false), 'running');
  assert.equal(classifyMissingResult(true), 'incomplete');
});

test('exceptionCategory tells RuntimeErrors apart by message', () => {
  assert.equal(exceptionCategory('RuntimeError', 'Agent install failed: x'), 'agent-setup');
  assert.equal(exceptionCategory('RuntimeError', 'Docker compose command failed for environment e'), 'environment');
  assert.equal(exceptionCategory('RuntimeError', 'other'), 'unknown');
  // Only a RuntimeError is told apart by its message.
  assert.equal(exceptionCategory('SomeNewError', 'Agent install failed: x'), 'unknown');
  assert.equal(exceptionCategory('SomeNewError', 'Docker compose command failed for environment e'), 'unknown');
  assert.equal(exceptionCategory('ContextWindowExceededError'), 'context-length');
});

const fixtures = path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'fixtures');
const variant = path.join(fixtures, 'harbor', 'variants', 'agent-timeout-with-reward.result.json');
test('fixture variants/agent-timeout-with-reward.result.json → truncated with reward 1', { skip: !fs.existsSync(variant) && 'no shared fixtures' }, () => {
  const c = classifyTrial(JSON.parse(fs.readFileSync(variant, 'utf8')), { jobFinished: true });
  assert.equal(c.outcome, 'truncated');
  assert.equal(c.reward, 1);
  assert.equal(c.exception?.type, 'AgentTimeoutError');
});

test('the variant shape built in the test (no fixture needed) → truncated with reward 1', () => {
  const c = classifyTrial(trial({ exception_info: ex('AgentTimeoutError', 'Agent execution timed out after 900.0 seconds'), ...scored({ reward: 1.0 }) }), { jobFinished: true });
  assert.equal(c.outcome, 'truncated');
  assert.equal(c.reward, 1);
  assert.equal(c.exception?.type, 'AgentTimeoutError');
});

// ---------------------------------------------------------------- NeMo Gym repeats

interface NemoRow { name: string; input: NemoRepeatInput; outcome: Outcome }
const nemo = (sourceOutcome: string, over: Partial<NemoRepeatInput> = {}): NemoRepeatInput =>
  ({ sourceOutcome, reward: null, failureKind: null, failureClass: null, failureStage: null, ...over });

const nemoRows: NemoRow[] = [
  { name: 'scored, reward 1 → passed', input: nemo('scored', { reward: 1 }), outcome: 'passed' },
  { name: 'scored, reward 1.5 → passed', input: nemo('scored', { reward: 1.5 }), outcome: 'passed' },
  { name: 'scored, reward 0 → failed', input: nemo('scored', { reward: 0 }), outcome: 'failed' },
  { name: 'scored, reward 0.99 → failed', input: nemo('scored', { reward: 0.99 }), outcome: 'failed' },
  { name: 'scored, harbor:verifier_timeout → failed (measured 0)', input: nemo('scored', { reward: 0, failureKind: 'harbor:verifier_timeout' }), outcome: 'failed' },
  { name: 'scored, harbor:missing_reward → failed (measured 0)', input: nemo('scored', { reward: 0, failureKind: 'harbor:missing_reward' }), outcome: 'failed' },
  { name: 'scored, harbor:invalid_reward → failed (measured 0)', input: nemo('scored', { reward: 0, failureKind: 'harbor:invalid_reward' }), outcome: 'failed' },
  // A measured failure kind decides even when the row's reward says pass: the verifier did not give that reward.
  { name: 'scored, reward 1 but harbor:verifier_timeout → failed', input: nemo('scored', { reward: 1, failureKind: 'harbor:verifier_timeout' }), outcome: 'failed' },
  { name: 'scored, reward 1 but harbor:invalid_reward → failed', input: nemo('scored', { reward: 1, failureKind: 'harbor:invalid_reward' }), outcome: 'failed' },
  { name: 'scored, reward 1 and a failure kind that is not a measured one → passed', input: nemo('scored', { reward: 1, failureKind: 'verifier_error' }), outcome: 'passed' },
  { name: 'scored, agent_timed_out, reward 1 → truncated', input: nemo('scored', { reward: 1, agentTimedOut: true }), outcome: 'truncated' },
  { name: 'scored, agent_timed_out and verifier_timeout → truncated (the agent timeout came first)', input: nemo('scored', { reward: 0, agentTimedOut: true, failureKind: 'harbor:verifier_timeout' }), outcome: 'truncated' },
  { name: 'scored without a reward → infra-error', input: nemo('scored', { reward: null }), outcome: 'infra-error' },
  { name: 'scored with a NaN reward → infra-error (not a measurement)', input: nemo('scored', { reward: Number.NaN }), outcome: 'infra-error' },
  { name: 'masked → infra-error', input: nemo('masked', { reward: 0, failureKind: 'verifier_error' }), outcome: 'infra-error' },
  { name: 'masked provider_unavailable → infra-error', input: nemo('masked', { reward: 0, failureKind: 'provider_unavailable' }), outcome: 'infra-error' },
  { name: 'failed sidecar row, stage environment → infra-error', input: nemo('failed', { failureClass: 'environment_server_failed', failureStage: 'seed' }), outcome: 'infra-error' },
  { name: 'failed sidecar row, stage agent → infra-error (no score, so not agent-error)', input: nemo('failed', { failureClass: 'agent_run_error', failureStage: 'agent' }), outcome: 'infra-error' },
  { name: 'missing → missing', input: nemo('missing'), outcome: 'missing' },
  { name: 'unknown source outcome → infra-error', input: nemo('weird'), outcome: 'infra-error' },
];

for (const row of nemoRows) {
  test(`classifyNemoRepeat: ${row.name}`, () => assert.equal(classifyNemoRepeat(row.input), row.outcome));
}

test('classifyNemoRepeat accepts a run summary repeat as written (snake_case)', () => {
  assert.equal(classifyNemoRepeat({ repeat: 0, outcome: 'scored', reward: 1 }), 'passed');
  assert.equal(classifyNemoRepeat({ repeat: 0, outcome: 'scored', reward: 0, failure_kind: 'harbor:missing_reward' }), 'failed');
  assert.equal(classifyNemoRepeat({ repeat: 0, outcome: 'scored', reward: 1, agent_timed_out: true }), 'truncated');
  assert.equal(classifyNemoRepeat({ repeat: 1, outcome: 'masked', reward: 0 }), 'infra-error');
  assert.equal(classifyNemoRepeat({ repeat: 1, outcome: 'missing', reward: null }), 'missing');
  assert.equal(classifyNemoRepeat({ repeat: 2, reward: 1 }), 'infra-error', 'a repeat without an outcome is not scored');
});

test('nemoRepeatInput: each snake_case key read; wrongly typed values count as absent', () => {
  assert.deepEqual(nemoRepeatInput({
    outcome: 'scored', reward: 0.5, failure_kind: 'harbor:missing_reward', failure_class: 'agent_run_error', failure_stage: 'agent', agent_timed_out: false,
  }), { sourceOutcome: 'scored', reward: 0.5, failureKind: 'harbor:missing_reward', failureClass: 'agent_run_error', failureStage: 'agent', agentTimedOut: false });
  assert.deepEqual(nemoRepeatInput({ outcome: 1, reward: '1', failure_kind: 2, failure_class: [], failure_stage: {}, agent_timed_out: 'yes' }),
    { sourceOutcome: '', reward: null, failureKind: null, failureClass: null, failureStage: null, agentTimedOut: null });
  assert.deepEqual(nemoRepeatInput({}),
    { sourceOutcome: '', reward: null, failureKind: null, failureClass: null, failureStage: null, agentTimedOut: null });
});
