// How one attempt ended: the ONE classification of Harbor trials (docs/formats.md#outcomes) and of NeMo Gym
// repeats. Every reader calls these; nothing else decides an outcome.
import { PASS_THRESHOLD, type ExceptionSummary, type Outcome, type StepSummary } from './model';
import {
  TrialResultSchema, describeZodError, primaryReward, type ExceptionInfo, type TrialResult,
} from './schemas/harbor';

// ---------------------------------------------------------------- exception categories (docs/formats.md#harbor-exceptions)

export type ExceptionCategory =
  | 'agent-timeout'
  | 'agent-exit'
  | 'api'
  | 'context-length'
  | 'output-length'
  | 'auth'
  | 'network'
  | 'agent-setup'
  | 'environment'
  | 'verifier'
  | 'cancelled'
  | 'unknown';

const CATEGORY_OF: Record<string, ExceptionCategory> = {
  AgentTimeoutError: 'agent-timeout',
  NonZeroAgentExitCodeError: 'agent-exit',
  ApiError: 'api',
  ApiRateLimitError: 'api',
  ApiUsageLimitError: 'api',
  ApiInternalServerError: 'api',
  ApiOverloadedError: 'api',
  ApiConnectionClosedError: 'api',
  ApiResponseStalledError: 'api',
  UnknownApiError: 'api',
  ApiProviderResourceNotFoundError: 'api',
  AgentSafetyRefusalError: 'api',
  ContextWindowExceededError: 'context-length',
  ContextLengthExceededError: 'context-length',
  OutputTokenExceededError: 'output-length',
  OutputLengthExceededError: 'output-length',
  AgentAuthenticationError: 'auth',
  ModelNotFoundError: 'auth',
  NetworkConnectionError: 'network',
  AgentSetupTimeoutError: 'agent-setup',
  EnvironmentStartTimeoutError: 'environment',
  HealthcheckError: 'environment',
  SandboxBuildFailedError: 'environment',
  ServiceOperationsUnsupportedError: 'environment',
  GKEExecStreamClosedError: 'environment',
  MemoryLimitExceededError: 'environment',
  VercelScopeError: 'environment',
  VerifierTimeoutError: 'verifier',
  RewardFileNotFoundError: 'verifier',
  RewardFileEmptyError: 'verifier',
  VerifierOutputParseError: 'verifier',
  AddTestsDirError: 'verifier',
  DownloadVerifierDirError: 'verifier',
  CancelledError: 'cancelled',
};

/** The category of an exception type (docs/formats.md#harbor-exceptions); RuntimeError is told apart by its message (agent install / docker compose). */
export function exceptionCategory(type: string, message?: string | null): ExceptionCategory {
  const known = CATEGORY_OF[type];
  if (known) return known;
  if (type === 'RuntimeError' && message) {
    if (/Agent install failed/i.test(message)) return 'agent-setup';
    if (/Docker compose command failed/i.test(message)) return 'environment';
  }
  return 'unknown';
}

/** The agent ran out of time, context or output budget: TRUNCATED, reward kept when the verifier ran. */
const TRUNCATING: ReadonlySet<ExceptionCategory> = new Set(['agent-timeout', 'context-length', 'output-length']);
/** The harness itself failed (non-zero exit, provider / API, auth, network): AGENT_ERROR when still scored. */
const AGENT_FAILING: ReadonlySet<ExceptionCategory> = new Set(['agent-exit', 'api', 'auth', 'network']);
/** Sandbox, setup or verifier failures: never a score. */
const INFRA: ReadonlySet<ExceptionCategory> = new Set(['agent-setup', 'environment', 'verifier']);

// ---------------------------------------------------------------- Harbor trials

export interface TrialClassification {
  outcome: Outcome;
  /** Primary reward (rewards.reward, else the only key, else null). null = not measured, never a zero. */
  reward: number | null;
  rewards: Record<string, number> | null;
  /** The deciding exception: the trial-level one, else the first step's (multi-step). */
  exception?: ExceptionSummary;
  /** The category of `exception`. */
  category?: ExceptionCategory;
  /** Multi-step trials: one entry per step_results item. */
  steps?: StepSummary[];
  /** Set when the result could not be trusted (wrong JSON types): what was wrong, and where. */
  invalid?: { message: string; path: (string | number)[] };
}

/** A trial dir with no result.json: running while the job is, incomplete (crashed / interrupted) once it ended. */
export function classifyMissingResult(jobFinished: boolean): Outcome {
  return jobFinished ? 'incomplete' : 'running';
}

function summarize(info: ExceptionInfo, where: string): ExceptionSummary {
  return { type: info.exception_type, message: info.exception_message ?? '', where };
}

/**
 * Classifies one Harbor trial from its result.json content (docs/formats.md#outcomes):
 * - no result (undefined / null): running or incomplete, from `ctx.jobFinished`;
 * - a result whose fields have the wrong JSON types: infra-error — nothing in it can be trusted to score;
 * - CancelledError: cancelled;
 * - agent timeout, context length, output length: truncated, with the verifier's reward when it ran, else null;
 * - non-zero agent exit, API / auth / network errors (and exceptions of unknown type): agent-error with the score
 *   when the verifier still scored it, else infra-error (e.g. raised in agent setup, where the verifier never runs);
 * - agent setup, environment / sandbox, verifier failures: infra-error, reward null;
 * - no exception: passed / failed by the primary reward against PASS_THRESHOLD;
 *   no rewards at all (verifier disabled, install-only) or several keys with no `reward` key: no-result.
 * Multi-step trials: the trial-level exception wins, else the first step with an exception decides (its
 * `where` is the step name); the reward is the trial-level aggregate.
 */
export function classifyTrial(result: unknown, ctx: { jobFinished: boolean }): TrialClassification {
  if (result === undefined || result === null) {
    return { outcome: classifyMissingResult(ctx.jobFinished), reward: null, rewards: null };
  }
  if (typeof result !== 'object' || Array.isArray(result)) {
    return {
      outcome: 'infra-error', reward: null, rewards: null,
      invalid: { message: 'result is not a JSON object', path: [] },
    };
  }
  const parsed = TrialResultSchema.safeParse(result);
  if (!parsed.success) {
    const invalid = describeZodError(parsed.error);
    return {
      outcome: 'infra-error', reward: null, rewards: null, invalid,
      exception: { type: 'InvalidResult', message: `result.json has a field of the wrong type: ${invalid.message}` },
    };
  }
  return classifyParsedTrial(parsed.data);
}

/** classifyTrial for a result that already passed TrialResultSchema. */
export function classifyParsedTrial(r: TrialResult): TrialClassification {
  const rewards = r.verifier_result?.rewards ?? null;
  const reward = primaryReward(rewards);
  const steps = r.step_results?.map((s): StepSummary => {
    const stepRewards = s.verifier_result?.rewards ?? null;
    const out: StepSummary = { name: s.step_name, reward: primaryReward(stepRewards), rewards: stepRewards };
    if (s.exception_info) out.exception = summarize(s.exception_info, s.step_name);
    return out;
  });

  let exception: ExceptionSummary | undefined;
  if (r.exception_info) exception = summarize(r.exception_info, 'trial');
  else exception = steps?.find((s) => s.exception)?.exception;

  const base = { rewards, ...(steps ? { steps } : {}) };
  if (!exception) {
    if (reward === null) return { ...base, outcome: 'no-result', reward: null };
    return { ...base, outcome: reward >= PASS_THRESHOLD ? 'passed' : 'failed', reward };
  }

  const category = exceptionCategory(exception.type, exception.message);
  const withEx = { ...base, exception, category };
  if (category === 'cancelled') return { ...withEx, outcome: 'cancelled', reward };
  if (TRUNCATING.has(category)) return { ...withEx, outcome: 'truncated', reward };
  if (INFRA.has(category)) return { ...withEx, outcome: 'infra-error', reward: null };
  // Agent failures and exceptions of unknown type: scored despite an error, or no score at all.
  if (AGENT_FAILING.has(category) || category === 'unknown') {
    return reward !== null ? { ...withEx, outcome: 'agent-error', reward } : { ...withEx, outcome: 'infra-error', reward: null };
  }
  return { ...withEx, outcome: 'infra-error', reward: null };
}

// ---------------------------------------------------------------- NeMo Gym repeats

export interface NemoRepeatInput {
  /** The run summary's repeats[].outcome: scored (result row), masked, failed (failures-sidecar row), missing (no row). */
  sourceOutcome: 'scored' | 'masked' | 'failed' | 'missing' | string;
  reward: number | null | undefined;
  failureKind?: string | null;
  failureClass?: string | null;
  failureStage?: string | null;
  /** The row's agent_timed_out (single_agent_turn). */
  agentTimedOut?: boolean | null;
}

/**
 * Failure kinds of a scored row that are still a measurement: the verifier timed out, or its reward file was missing
 * or unparsable. NeMo Gym gives those reward 0.0 and does not mask them, so the attempt is FAILED with reward 0 — a
 * real measured zero (the task's test did not produce a pass), unlike a masked row, which is never a score.
 */
export const MEASURED_FAILURE_KINDS: ReadonlySet<string> = new Set([
  'harbor:verifier_timeout', 'harbor:missing_reward', 'harbor:invalid_reward',
]);

/**
 * The classification input of a run summary's `tasks[].repeats[]` entry as written (snake_case keys: outcome,
 * reward, failure_kind, failure_class, failure_stage, agent_timed_out). Wrongly typed values count as absent.
 */
export function nemoRepeatInput(raw: Record<string, unknown>): NemoRepeatInput {
  const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    sourceOutcome: s(raw.outcome) ?? '',
    reward: typeof raw.reward === 'number' ? raw.reward : null,
    failureKind: s(raw.failure_kind),
    failureClass: s(raw.failure_class),
    failureStage: s(raw.failure_stage),
    agentTimedOut: typeof raw.agent_timed_out === 'boolean' ? raw.agent_timed_out : null,
  };
}

/**
 * Outcome of one NeMo Gym repeat (docs/formats.md#nemo-gym-outcomes):
 * - missing: no row at all → missing;
 * - masked: a Gym-side failure (sandbox lost, transfer failed), mask_sample true → infra-error;
 * - failed: a failures-sidecar row (`_ng_failure_class` environment_server_failed / agent_run_error /
 *   agent_request_failed) → infra-error, whatever its `failure_stage`. Such a row carries no reward and no
 *   response, and `agent-error` means "the agent failed AND the verifier still scored it" (docs/formats.md#outcomes: anything
 *   unscored is INFRA_ERROR), so a sidecar row at stage 'agent' is not an agent-error; the stage stays visible
 *   in the attempt's failure detail;
 * - scored with agent_timed_out → truncated (the reward is kept by the caller; this takes precedence over a
 *   measured failure kind, as Harbor keeps the first exception, the agent timeout);
 * - scored with failure_kind harbor:verifier_timeout / missing_reward / invalid_reward → failed (measured, reward 0);
 * - scored: reward ≥ PASS_THRESHOLD → passed, else failed; a scored row without a finite reward → infra-error.
 * Any other source outcome string → infra-error.
 * Accepts the camelCase input above or a summary repeat object as written (see nemoRepeatInput).
 */
export function classifyNemoRepeat(repeat: NemoRepeatInput | Record<string, unknown>): Outcome {
  const input = 'sourceOutcome' in repeat ? (repeat as NemoRepeatInput) : nemoRepeatInput(repeat);
  switch (input.sourceOutcome) {
    case 'missing':
      return 'missing';
    case 'masked':
    case 'failed':
      return 'infra-error';
    case 'scored': {
      if (input.agentTimedOut === true) return 'truncated';
      if (input.failureKind && MEASURED_FAILURE_KINDS.has(input.failureKind)) return 'failed';
      const r = input.reward;
      if (typeof r !== 'number' || !Number.isFinite(r)) return 'infra-error';
      return r >= PASS_THRESHOLD ? 'passed' : 'failed';
    }
    default:
      return 'infra-error';
  }
}
