// What a generated viewer data dir (docs/formats.md#viewer-data) holds, as a spec: a project with support tiers, datasets of tasks
// whose cells ("<model>|<harness>") list attempts by reward (null = the verifier never ran), and training runs.

export interface ViewerAttemptSpec {
  /** null: dead sandbox, no answer (not a zero). */
  reward: number | null;
  nTurns?: number;
  elapsedSec?: number;
  /** present: traces/<id>.json written; missing: referenced but not on disk; none: no trace reference. Default present. */
  trace?: 'present' | 'missing' | 'none';
}

export interface ViewerTaskSpec {
  id: string;
  difficulty?: 'easy' | 'medium' | 'hard';
  question?: string;
  answer?: string;
  rewardMode?: 'exact' | 'numeric' | 'llm';
  /** Keyed "<model>|<harness>". */
  cells: Record<string, ViewerAttemptSpec[]>;
}

export interface ViewerDatasetSpec {
  id: string;
  /** Written to dataset.json when given (optional file). */
  label?: string;
  notes?: string;
  kMax: number;
  models: string[];
  harnesses: string[];
  tasks: ViewerTaskSpec[];
}

export interface ViewerRunSpec {
  id: string;
  label: string;
  model: string;
  harness: string;
  dataset: string;
  steps: number;
  /** Still training: no finished_at, the last metrics line has no newline yet. */
  live?: boolean;
}

export interface ViewerDataSpec {
  projectId: string;
  label: string;
  description: string;
  source?: Record<string, unknown>;
  support: Record<string, { tier: 'stable' | 'experimental' | string; caveats?: string[] }>;
  datasets: ViewerDatasetSpec[];
  runs: ViewerRunSpec[];
}

const M2 = 'Qwen/Qwen3.5-2B';
const M9 = 'Qwen/Qwen3.5-9B';
const MINI = 'mini-swe-agent';
const OC = 'opencode';

const a = (...rewards: (number | null)[]): ViewerAttemptSpec[] => rewards.map((reward) => ({ reward }));

/** Every case of a viewer data dir (docs/formats.md#viewer-data): two harnesses (one experimental with caveats), null attempts, an all-null task, a missing trace. */
export function viewerEveryCase(): ViewerDataSpec {
  const withMissingTrace = a(0, 1, null, 0);
  withMissingTrace[1] = { reward: 1, trace: 'missing' };
  return {
    projectId: 'data-agent',
    label: 'Data-Agent Bench',
    description: 'Verified data-analysis tasks over Kaggle datasets, graded exact / numeric / LLM-judge.',
    source: { hf_dataset: 'example-org/data_agent_rl_environment_eval' },
    support: {
      [MINI]: { tier: 'stable' },
      [OC]: { tier: 'experimental', caveats: ['no step limit; ~90 turns and ~17% of rollouts retry after exit 137'] },
    },
    datasets: [
      {
        id: 'eval-v1', label: 'Eval v1', notes: 'Five tasks, two models, two harnesses, four attempts per cell.', kMax: 4,
        models: [M2, M9], harnesses: [MINI, OC],
        tasks: [
          { id: '0000_416_416942_qa_3', difficulty: 'easy', question: 'What is the median of the `score` column?', answer: '0.4056', rewardMode: 'numeric',
            cells: { [`${M2}|${MINI}`]: a(1, 1, 0, 1), [`${M2}|${OC}`]: a(0, 1, 1, 0), [`${M9}|${MINI}`]: a(1, 1, 1, 1), [`${M9}|${OC}`]: a(1, null, 1, 1) } },
          { id: '0001_212_100233_qa_1', difficulty: 'medium', question: 'Which region had the highest total sales in 2019?', answer: 'EMEA', rewardMode: 'exact',
            cells: { [`${M2}|${MINI}`]: a(0, 0, 1, 0), [`${M2}|${OC}`]: a(null, null, 0, 0), [`${M9}|${MINI}`]: a(0, 1, 0, 1), [`${M9}|${OC}`]: withMissingTrace } },
          { id: '0002_037_551020_qa_2', difficulty: 'hard', question: 'How many customers churned within 30 days of signing up?', answer: '1,284', rewardMode: 'llm',
            cells: { [`${M2}|${MINI}`]: a(0, 0, 0, 0), [`${M2}|${OC}`]: a(0, 0, null, 0), [`${M9}|${MINI}`]: a(0, 0, 0, 0), [`${M9}|${OC}`]: a(0, 0, 0, 0) } },
          // Every attempt null: the sandbox died every time; counted under n_all_infra, never as a fail.
          { id: '0003_990_000145_qa_4', difficulty: 'medium', question: 'What share of the rows have a missing `age`?', answer: '0.127', rewardMode: 'numeric',
            cells: { [`${M2}|${MINI}`]: a(null, null, null, null), [`${M2}|${OC}`]: a(null, null, null, null), [`${M9}|${MINI}`]: a(null, null, null, null), [`${M9}|${OC}`]: a(null, null, null, null) } },
          { id: '0004_101_732001_qa_0', difficulty: 'easy', question: 'What is the mean order value in USD?', answer: '57.31', rewardMode: 'numeric',
            cells: { [`${M2}|${MINI}`]: a(1, 0, 0, 0), [`${M2}|${OC}`]: a(0, 0, 0, 1), [`${M9}|${MINI}`]: a(1, 1, 0, 1), [`${M9}|${OC}`]: [{ reward: 1, trace: 'none' }, { reward: 0 }, { reward: null }, { reward: 1 }] } },
        ],
      },
      {
        // No dataset.json: the file is optional.
        id: 'dabstep', kMax: 2, models: [M2], harnesses: [MINI],
        tasks: [
          { id: 'dabstep-001', question: 'Which merchant had the most fraudulent transactions?', answer: 'Merchant_12', rewardMode: 'exact', cells: { [`${M2}|${MINI}`]: a(1, 1) } },
          { id: 'dabstep-002', question: 'What is the average fee for card scheme X?', answer: '0.42', rewardMode: 'numeric', cells: { [`${M2}|${MINI}`]: a(0, 1) } },
          { id: 'dabstep-003', question: 'How many transactions were refunded?', answer: '318', rewardMode: 'exact', cells: { [`${M2}|${MINI}`]: a(0, null) } },
        ],
      },
    ],
    runs: [
      { id: 'grpo-2b-run1', label: 'GRPO 2B on eval-v1', model: M2, harness: MINI, dataset: 'eval-v1', steps: 6 },
      { id: 'grpo-9b-live', label: 'GRPO 9B (live)', model: M9, harness: OC, dataset: 'eval-v1', steps: 3, live: true },
    ],
  };
}

/** A big dataset: `nTasks` tasks × models × harnesses × kMax attempts, with a sprinkling of null attempts. */
export function viewerLarge(nTasks: number, opts: { models?: number; harnesses?: number; kMax?: number } = {}): ViewerDataSpec {
  const models = Array.from({ length: opts.models ?? 2 }, (_, i) => `org/model-${i + 1}`);
  const harnesses = Array.from({ length: opts.harnesses ?? 2 }, (_, i) => (i === 0 ? MINI : i === 1 ? OC : `harness-${i + 1}`));
  const kMax = opts.kMax ?? 4;
  const tasks: ViewerTaskSpec[] = [];
  for (let t = 0; t < nTasks; t++) {
    const cells: Record<string, ViewerAttemptSpec[]> = {};
    models.forEach((m, mi) => harnesses.forEach((h, hi) => {
      cells[`${m}|${h}`] = Array.from({ length: kMax }, (_, k) => {
        const x = (t * 31 + mi * 7 + hi * 5 + k * 3) % 17;
        return { reward: t % 41 === 7 || x === 0 ? null : x < 6 ? 1 : 0, trace: x === 3 ? 'none' : 'present' } as ViewerAttemptSpec;
      });
    }));
    tasks.push({ id: `task-${String(t).padStart(5, '0')}`, difficulty: (['easy', 'medium', 'hard'] as const)[t % 3], question: `Question ${t}?`, answer: String(t), rewardMode: 'exact', cells });
  }
  return {
    projectId: 'large-project', label: 'Large project', description: 'Generated for benchmarks.',
    support: Object.fromEntries(harnesses.map((h, i) => [h, i === 1 ? { tier: 'experimental', caveats: ['generated'] } : { tier: 'stable' }])),
    datasets: [{ id: 'large', label: 'Large', kMax, models, harnesses, tasks }],
    runs: [{ id: 'large-run', label: 'Large run', model: models[0], harness: harnesses[0], dataset: 'large', steps: 50 }],
  };
}
