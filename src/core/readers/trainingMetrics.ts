// The run reader's pass over a training run's train/metrics.jsonl (docs/formats.md#viewer-data): the step count,
// the last step's numbers, rows that do not match the metrics schema, steps that teach nothing (reward_std 0) and
// the file's own problems (bad lines, a tail still being written).
//
// The file is append-only and a run still training grows it by a few lines a step, while the workspace's watcher
// has the run read again at every change. So a read goes on from where the last read of the same file (through the
// same FsPort) ended, when the file has only grown since (appendMark.ts), and gives what reading it whole gives. The
// work is cut into time slices with a turn of the event loop between them, so a long file never holds the host.
import { type AppendMark, grownSince, markAt } from '../appendMark';
import type { FsPort } from '../fs/port';
import { readJsonl } from '../jsonl';
import type { Problem } from '../model';
import { TrainingMetricsRowSchema } from '../schemas/viewer';
import { TimeSlice } from '../turn';

/** At most this many "teaches nothing" notes per run; the rest are counted in one more note. */
const MAX_FLAT_NOTES = 3;
/** At most this many steps named for going back; the rest are counted. */
const MAX_BACK_NOTES = 3;
/** At most this many rows named for not matching the schema; the rest are counted. */
const MAX_SCHEMA_NOTES = 20;
/** At most this many of the file's own problems (bad lines …) listed, as readJsonl does by default. */
const MAX_FILE_PROBLEMS = 200;
/** Files whose last read is kept per FsPort (a workspace rarely shows more training runs at once). */
const MAX_KEPT = 16;

export interface TrainingMetrics {
  steps: number;
  last: Record<string, number | null> | undefined;
  problems: Problem[];
  /** The last line is unfinished (the run is still writing it). */
  running: boolean;
}

/** What the lines read so far add up to. */
interface Tally {
  steps: number;
  last: Record<string, number | null> | undefined;
  flat: number;
  schemaIssues: number;
  /** The step of the last row counted, and how many rows had a step not above the one before (steps going back). */
  lastStep: number | undefined;
  back: number;
  /** Schema and zero-advantage notes, in line order. */
  rowNotes: Problem[];
  /** The file's own problems (readJsonl's), in line order. */
  fileProblems: Problem[];
}

function copyTally(t: Tally): Tally {
  return { ...t, rowNotes: [...t.rowNotes], fileProblems: [...t.fileProblems] };
}

const kept = new WeakMap<FsPort, Map<string, { tally: Tally; mark: AppendMark }>>();

/** True when every field the schema names holds what it allows: the row is valid without asking zod (the hot path). */
function plainlyValid(row: Record<string, unknown>): boolean {
  const step = row.step;
  if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 0) return false;
  for (const k of ['reward', 'reward_std', 'loss', 'ratio', 'kl', 'entropy', 'n_rollouts', 'n_unscorable', 'wall_s']) {
    const v = row[k];
    if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v))) return false;
  }
  return true;
}

function addRow(t: Tally, file: string, row: Record<string, unknown>, line: number): void {
  if (!plainlyValid(row)) {
    const parsed = TrainingMetricsRowSchema.safeParse(row);
    if (!parsed.success) {
      if (++t.schemaIssues <= MAX_SCHEMA_NOTES) {
        const issue = parsed.error.issues[0];
        t.rowNotes.push({ file, line, severity: 'warning', code: 'schema',
          message: `line ${line}: ${issue.path.map(String).join('.') || '(row)'}: ${issue.message}` });
      }
      if (typeof row.step !== 'number') return;
    }
  }
  t.steps++;
  // A trainer resumed from an earlier checkpoint appends the steps after it again: the file's rows are then not one
  // per step, and the curves (drawn in file order) go back. Said at the first rows where it happens.
  // (A step that is not a whole number ≥ 0 has its schema warning already, and is not compared.)
  const step = row.step as number;
  if (Number.isSafeInteger(step) && step >= 0) {
    if (t.lastStep !== undefined && step <= t.lastStep && ++t.back <= MAX_BACK_NOTES) {
      t.rowNotes.push({ file, line, severity: 'warning', code: 'step-order',
        message: `line ${line}: step ${step} comes after step ${t.lastStep}: the steps go back (a run resumed from an earlier checkpoint writes them again), so rows are counted and drawn in file order, not one per step` });
    }
    t.lastStep = step;
  }
  const last: Record<string, number | null> = {};
  for (const [k, x] of Object.entries(row)) {
    if (typeof x === 'number' || x === null) last[k] = x;
  }
  t.last = last;
  if (row.reward_std === 0) {
    t.flat++;
    if (t.flat <= MAX_FLAT_NOTES) {
      t.rowNotes.push({ file, line, severity: 'info', code: 'zero-advantage',
        message: `step ${String(row.step)} teaches nothing (zero advantage): every generation scored the same (reward_std 0)` });
    }
  }
}

function problemsOf(t: Tally, file: string, dropped: number): Problem[] {
  const out = [...t.rowNotes];
  if (t.schemaIssues > MAX_SCHEMA_NOTES) {
    out.push({ file, severity: 'warning', code: 'more-problems', message: `${t.schemaIssues - MAX_SCHEMA_NOTES} more rows do not match the metrics schema` });
  }
  if (t.back > MAX_BACK_NOTES) {
    out.push({ file, severity: 'warning', code: 'step-order', message: `${t.back - MAX_BACK_NOTES} more ${t.back - MAX_BACK_NOTES === 1 ? 'row' : 'rows'} whose step is not above the one before` });
  }
  if (t.flat > MAX_FLAT_NOTES) {
    out.push({ file, severity: 'info', code: 'zero-advantage', message: `${t.flat - MAX_FLAT_NOTES} more steps teach nothing (reward_std 0)` });
  }
  out.push(...t.fileProblems);
  if (dropped > 0) out.push({ file, severity: 'warning', code: 'more-problems', message: `${dropped} more problems in ${file} not listed` });
  return out;
}

/** Reads (or reads on) a training run's metrics.jsonl. */
export async function readTrainingMetrics(fs: FsPort, file: string): Promise<TrainingMetrics> {
  let files = kept.get(fs);
  if (!files) kept.set(fs, (files = new Map()));
  const earlier = files.get(file);
  files.delete(file);
  const goOn = earlier !== undefined && await grownSince(fs, file, earlier.mark);
  const tally = goOn ? copyTally(earlier.tally) : { steps: 0, last: undefined, flat: 0, schemaIssues: 0, lastStep: undefined, back: 0, rowNotes: [], fileProblems: [] };
  let tail: Tally | undefined; // the lines read plus a last line without a newline, which the next read reads again
  const slice = new TimeSlice();
  const res = await readJsonl(fs, file, (row, line, terminated) => {
    if (terminated) addRow(tally, file, row, line);
    else addRow((tail = copyTally(tally)), file, row, line);
    return slice.due ? slice.yield() : undefined;
  }, { maxProblems: Math.max(0, MAX_FILE_PROBLEMS - tally.fileProblems.length), from: goOn ? earlier.mark.resume : undefined });
  let dropped = 0;
  const fileProblems: Problem[] = [];
  for (const p of res.problems) {
    if (p.code === 'more-problems' && p.line === undefined) dropped = Number.parseInt(p.message, 10) || 0;
    else fileProblems.push(p);
  }
  const terminatedProblems = fileProblems.filter((p) => p.line !== undefined && p.line <= res.resume.line);
  tally.fileProblems.push(...terminatedProblems);
  // What this read shows: the lines with a newline, then the last line's row and problems (read again next time).
  const shown = tail ?? copyTally(tally);
  shown.fileProblems = [...tally.fileProblems, ...fileProblems.filter((p) => !terminatedProblems.includes(p))];
  // Kept only when what was read can be gone on from: every problem listed (none dropped) and the file read.
  const unreadable = fileProblems.some((p) => p.code === 'unreadable');
  if (dropped === 0 && !unreadable && res.resume.byte > 0) {
    files.set(file, { tally, mark: await markAt(fs, file, res.resume) });
    while (files.size > MAX_KEPT) files.delete(files.keys().next().value as string);
  }
  return { steps: shown.steps, last: shown.last, problems: problemsOf(shown, file, dropped), running: res.incompleteTail };
}
