// The ONE definition of the messages between the Run Overview panel (host, src/vscode/panels/runOverviewPanel.ts) and
// its webview (webview/runOverview/main.ts). Both sides import these zod schemas and validate every message they receive:
// a message that does not parse is dropped (and logged), never acted on. Types are inferred from the schemas.
// vscode-free and DOM-free, so it is bundled for the browser and for the extension host alike.
import * as z from 'zod/mini';
import { HostFailedSchema } from './failed';
import { OUTCOMES, RUN_STATES, SOURCE_KINDS } from '../core/model';
import { type Parsed, parseWith } from './parse';
import { DashboardSchema, OutcomeSchema, type PassAtRow, PassAtRowSchema, RewardDetailsSchema, TaskTableRowSchema, TrainingSeriesSchema } from './dashboard';

export type { Parsed };

export { OUTCOMES };
export { OutcomeSchema };

const Text = z.string().check(z.maxLength(100_000));
const Count = z.int().check(z.nonnegative());

/** pass@k of a run (one home: the dashboard's pass@k row). */
export type PassAt = PassAtRow;
export const PassAtSchema = PassAtRowSchema;

export const CellSchema = z.object({
  attemptId: Text,
  label: Text,
  outcome: OutcomeSchema,
  /** null = not measured (the verifier never ran), never a zero. */
  reward: z.nullable(z.number()),
  /** Codicon id (without `codicon-`), `~spin` suffix allowed. */
  icon: z.string().check(z.regex(/^[a-z0-9-]+(~spin)?$/)),
  /** Plain text: outcome, reward, exception / failure. */
  tooltip: Text,
});

export const ColumnSchema = z.object({
  /** Column header: "#1", "#2" … */
  label: Text,
  /** Viewer data: the `model|harness` cell the column belongs to. */
  group: z.optional(Text),
});

export const TaskRowSchema = z.object({
  id: Text,
  label: Text,
  /** One entry per column; null where the task has no attempt in that column. */
  cells: z.array(z.nullable(CellSchema)),
  passAtK: z.nullable(z.number().check(z.gte(0)).check(z.lte(1))),
  /** The outcomes of its attempts (for the outcome filter). */
  outcomes: z.array(OutcomeSchema),
});

export const LeftOutSchema = z.object({
  taskId: Text,
  which: z.enum(['skipped', 'unvalidated']),
  reason: Text,
});

export const ProblemRowSchema = z.object({
  index: Count,
  file: Text,
  /** Relative to the run's root when inside it. */
  displayFile: Text,
  line: z.optional(Count),
  severity: z.enum(['error', 'warning', 'info']),
  code: Text,
  message: Text,
});

export const OverviewModelSchema = z.object({
  runId: Text,
  label: Text,
  kind: z.enum(SOURCE_KINDS),
  state: z.enum(RUN_STATES),
  root: Text,
  identity: z.array(z.tuple([Text, z.nullable(Text)])),
  counts: z.object({
    total: Count,
    measured: Count,
    passed: Count,
    byOutcome: z.array(z.object({ outcome: OutcomeSchema, label: Text, icon: z.string(), count: Count })),
  }),
  passAt1: PassAtSchema,
  passAtK: PassAtSchema,
  columns: z.array(ColumnSchema),
  tasks: z.array(TaskRowSchema),
  /** Tasks left out of `tasks` to keep the message small (huge runs). */
  tasksOmitted: Count,
  /** A big run's grid is not in this message: the page asks for it (`grid`) when its section is opened. */
  gridDeferred: z._default(z.boolean(), false),
  /** Which init this is (one per panel, counting up): `rows` and `grid` messages name the init they complete. */
  generation: z._default(Count, 0),
  problems: z.array(ProblemRowSchema),
  problemsOmitted: Count,
  /** Tasks that have no row at all: they did not load (`skipped`) or had no reference solution (`unvalidated`). */
  leftOut: z._default(z.array(LeftOutSchema).check(z.maxLength(1000)), []),
  leftOutOmitted: z._default(Count, 0),
  /** The run dashboard: pass@k table, reward histogram, usage, scatter, failure causes, task table, provenance, pivot. */
  dashboard: z.optional(DashboardSchema),
  /** The run has training metrics (metrics.jsonl): the host sends them as `training` messages. */
  hasTraining: z._default(z.boolean(), false),
});

export type OverviewModel = z.infer<typeof OverviewModelSchema>;
export type OverviewCell = z.infer<typeof CellSchema>;
export type OverviewColumn = z.infer<typeof ColumnSchema>;
export type OverviewTaskRow = z.infer<typeof TaskRowSchema>;
export type OverviewProblemRow = z.infer<typeof ProblemRowSchema>;
export type OverviewLeftOut = z.infer<typeof LeftOutSchema>;

/** Host → webview. */
export const HostMessageSchema = z.discriminatedUnion('type', [
  /** The answer to `ready`, and every later refresh (run re-read, panel shown again). */
  z.object({ type: z.literal('init'), model: OverviewModelSchema }),
  /** More rows of the dashboard's task table from `from` (the answer to `moreRows`); `done` on the last page. */
  z.object({ type: z.literal('rows'), generation: Count, from: Count, rows: z.array(TaskTableRowSchema).check(z.maxLength(10_000)), done: z.boolean() }),
  /** The task × attempt grid of a run whose init deferred it (answer to `grid`). */
  z.object({ type: z.literal('grid'), generation: Count, columns: z.array(ColumnSchema), tasks: z.array(TaskRowSchema), tasksOmitted: Count }),
  /** The run is gone (its files were deleted). */
  z.object({ type: z.literal('gone'), runId: Text }),
  /** Training curves of the run (after init, on every change of metrics.jsonl, and as the answer to `trainingRange`). */
  z.object({ type: z.literal('training'), series: TrainingSeriesSchema }),
  /** The reward-details.json of the attempt the webview selected (answer to `selectAttempt`). */
  z.object({ type: z.literal('rewardDetails'), details: RewardDetailsSchema }),
  /** The host could not answer one of the page's messages (src/protocol/failed.ts). */
  HostFailedSchema,
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** Webview → host. */
export const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Open an attempt: its evidence (test-stdout first), or its trajectory in the trajectory viewer when it has one. */
  z.object({ type: z.literal('openAttempt'), taskId: Text, attemptId: Text, target: z.optional(z.enum(['evidence', 'trajectory'])) }),
  z.object({ type: z.literal('openProblem'), index: Count }),
  /** The next page of the task table's rows (asked once the first screen is painted, then after each page). */
  z.object({ type: z.literal('moreRows'), generation: Count, from: Count }),
  /** The grid section was opened on a run whose init deferred the grid: the host answers `grid`. */
  z.object({ type: z.literal('grid') }),
  /** A task table row was selected: the host answers with its attempt's reward details when it has them. */
  z.object({ type: z.literal('selectAttempt'), taskId: Text, attemptId: Text }),
  /** The training chart's step range (null = open): the host answers with `training` at that resolution. */
  z.object({ type: z.literal('trainingRange'), from: z.nullable(z.number()), to: z.nullable(z.number()) }),
  /** Copy a table (Markdown or CSV) to the clipboard through the host. */
  z.object({ type: z.literal('copy'), format: z.enum(['markdown', 'csv']), what: z.string().check(z.maxLength(200)), text: z.string().check(z.maxLength(20_000_000)), rows: z.optional(Count) }),
  /** What the grid shows now (tests, and the host's log); again with `loading: false` once the last page of rows is in. */
  z.object({ type: z.literal('rendered'), rows: Count, columns: Count, tableRows: z.optional(Count), loading: z.optional(z.boolean()), filter: z.optional(z.string().check(z.maxLength(4000))) }),
  z.object({ type: z.literal('cspViolation'), directive: Text, blocked: Text }),
  /** Something went wrong in the page (a dropped message, a render failure): the host logs it. */
  z.object({ type: z.literal('error'), message: Text }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

export function parseHostMessage(data: unknown): Parsed<HostMessage> {
  return parseWith(HostMessageSchema, data);
}

export function parseWebviewMessage(data: unknown): Parsed<WebviewMessage> {
  return parseWith(WebviewMessageSchema, data);
}
