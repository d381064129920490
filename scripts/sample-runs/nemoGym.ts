// Writes a NeMo Gym Harbor run folder (`results/harbor/<taskset>/` of `gym eval run`, docs/formats.md#nemo-gym) from a
// spec: prepared rows and their sidecars, the collated input, run_config.yaml, materialized inputs, the rollouts file
// (streamed, any size), the failures sidecar, aggregate metrics, the health reports and one verifier log folder per
// verification. Deterministic: same spec + seed → same bytes; mtimes are set so the freshness rules hold.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NemoRepeatSpec, NemoRunSpec } from './nemoSpec';
import { aggregateMetrics, datasetMetrics, qualitySummary, runConfigYaml, verdictRow, type RowFacts } from './nemoSidecars';
import { failureRow, materializedRow, preparedRow, resultRow, rewardsFor, verifierFolderKind, writeVerifierFolder, type TaskCtx } from './nemoRows';
import { ChunkedWriter, prngFor, setMtime, sha256Hex, writeJson, writeJsonl, writeText } from './util';
import { writeSignaturesSidecar } from './nemoSignatures';

export type { NemoRepeatSpec, NemoRunSpec } from './nemoSpec';
export { nemoEveryCase, nemoLarge } from './nemoSpec';

/** 2026-08-22T12:00:00Z: the rollouts file's mtime; every other mtime is relative to it. */
export const NEMO_T0 = 1787400000;

export interface NemoRunResult {
  /** Where the rollouts file is (or would be: a run that wrote none). */
  rolloutsPath: string;
  /** Every run-level file written, keyed as a run summary's `files` keys them, absolute. */
  files: Record<string, string>;
  /** Tasks that did not load (no rows): what a summary lists under `skipped`. */
  skipped: Record<string, string>;
  /** Tasks a validate left out for want of a solution/: what a summary lists under `unvalidated`. */
  unvalidated: Record<string, string>;
  /** The verifier log folders written (absolute). */
  verifierDirs: string[];
  /** What the CLI knows of the run besides its files (a summary's target / agent / taskset). */
  identity: { target: string; agent: string; taskset: string };
}

const GARBAGE = [
  '{"_ng_task_index": 0, "reward": ',
  'this line is not JSON',
  '[1, 2, 3]',
  '{"reward": nan, "mask_sample": false}', // (not Python's NaN, which the readers take as no value)
  '"just a string"',
];

export async function generateNemoRun(dir: string, spec: NemoRunSpec, opts: { seed?: number; t0?: number } = {}): Promise<NemoRunResult> {
  const seed = opts.seed ?? 1;
  const T0 = opts.t0 ?? NEMO_T0;
  const abs = path.resolve(dir);
  const stem = spec.stem ?? 'rollouts';
  const split = spec.split ?? 'validation';
  const ts = spec.taskset;
  const root = (spec.originalRoot ?? abs).replace(/\/+$/, '');
  const validate = spec.validateNoSolution === true;
  const harness = spec.agent ?? (validate ? 'oracle_agent' : 'terminus_2_sandboxed_agent');
  const names = { agent: `harbor_${ts}_agent`, resources: `harbor_${ts}_resources_server`, environment: `harbor_${ts}_environment` };
  const files: Record<string, string> = {};
  const mtimes: [string, number][] = [];
  const put = (key: string, file: string, mtime: number) => { files[key] = file; mtimes.push([file, mtime]); };
  const rolloutsPath = path.join(abs, `${stem}.jsonl`);
  const target = spec.target ?? (validate ? `datasets/${ts}` : `harbor:${ts}@1.0`);
  const result: NemoRunResult = { rolloutsPath, files, skipped: { ...(spec.skipped ?? {}) }, unvalidated: {}, verifierDirs: [],
    identity: { target, agent: harness, taskset: ts } };
  fs.mkdirSync(abs, { recursive: true });

  const timeouts = [900, 600, 900, 1200];
  const ctxs: TaskCtx[] = spec.tasks.map((t, i) => ({
    taskset: ts, taskId: t.id, taskIndex: i, digest: sha256Hex(`${ts}/${t.id}@${seed}`),
    timeoutSec: timeouts[i % timeouts.length], turns: Math.max(1, t.turns ?? 2), names,
  }));

  // Prepared rows (prepare_target) and, for a validate that found no solution/ anywhere, nothing else.
  put('rows', writeJsonl(path.join(abs, 'tasks.jsonl'), ctxs.map(preparedRow)), T0 - 300);
  if (validate) {
    for (const t of spec.tasks) result.unvalidated[t.id] = 'NO_REFERENCE_SOLUTION';
    applyMtimes(mtimes);
    return result;
  }
  put('rows_prepare', writeJsonl(path.join(abs, 'tasks_prepare.jsonl'), ctxs.map((c) => ({ ...preparedRow(c), task_source: names.resources }))),
    spec.reusedPreparedInput ? T0 - 90000 : T0 - 290);
  if (!spec.reusedPreparedInput) {
    put('rows_metrics', writeJson(path.join(abs, 'tasks_metrics.json'), datasetMetrics(ts, split, `${root}/tasks.jsonl`, ctxs.length)), T0 - 290);
  }
  const datasetFolder = path.posix.resolve(root, '../../../datasets', ts);
  put('run_config', writeText(path.join(abs, 'run_config.yaml'),
    runConfigYaml({ taskset: ts, root, datasetFolder, agent: harness, digests: ctxs.map((c) => [c.taskId, c.digest]), split })), T0 - 285);
  const collatedDir = path.join(abs, stem, 'preprocessed_datasets');
  put('collated', writeJsonl(path.join(collatedDir, `${split}.jsonl`), ctxs.map((c) => ({ ...preparedRow(c), task_source: names.resources }))), T0 - 280);
  put('collated_metrics', writeJson(path.join(collatedDir, `${split}_metrics.json`), datasetMetrics(ts, split, `${root}/tasks.jsonl`, ctxs.length)),
    spec.reusedPreparedInput ? T0 - 90000 : T0 - 280);
  if (spec.noRollouts) {
    applyMtimes(mtimes);
    return result;
  }

  // The collector: materialized inputs (the expected rows), then rows as rollouts complete.
  const materialized = path.join(abs, `${stem}_materialized_inputs.jsonl`);
  const mw = new ChunkedWriter(materialized);
  for (const c of ctxs) for (let r = 0; r < spec.tasks[c.taskIndex].repeats.length; r++) mw.line(materializedRow(c, r));
  mw.close();
  put('materialized_inputs', materialized, T0 - 200);

  const facts: RowFacts[] = [];
  const failures: Record<string, unknown>[] = [];
  const out = new ChunkedWriter(rolloutsPath);
  const bad = new Set(spec.badLines ?? []);
  let lineNo = 0;
  let held: string | undefined;
  const emit = (text: string) => {
    while (bad.has(lineNo + 1)) {
      out.write(GARBAGE[lineNo % GARBAGE.length] + '\n');
      bad.delete(++lineNo);
    }
    out.write(text + '\n');
    lineNo++;
  };
  for (const c of ctxs) {
    const reps = spec.tasks[c.taskIndex].repeats;
    for (let r = 0; r < reps.length; r++) {
      const rep: NemoRepeatSpec = reps[r];
      const rng = prngFor(seed, `nemo:${ts}:${c.taskIndex}:${r}`);
      const startSec = T0 - 3600 + c.taskIndex * 40 + r * 7;
      if (rep.outcome === 'missing') continue;
      if (rep.outcome === 'failed') { failures.push(failureRow(c, r, rep)); continue; }
      const folder = verifierFolderKind(rep);
      const sid = `resources-session-${rng.hex(32)}`;
      let logsDir: string | null = null;
      if (folder !== 'none') {
        logsDir = `${root}/verifier/${sid}`;
        if (folder === 'present') {
          const vdir = path.join(abs, 'verifier', sid);
          // Written while the run went on: after dispatch, before the rollouts file's last write.
          for (const f of writeVerifierFolder(vdir, sid, c, r, rep, rng, startSec)) mtimes.push([f, Math.min(T0 - 10, Math.floor(startSec) + 120)]);
          result.verifierDirs.push(vdir);
        }
      }
      const row = resultRow(c, r, rep, { verifierLogsDir: logsDir, rewards: rewardsFor(rep), startSec, rng });
      const usage = (row.response as { usage: { input_tokens: number; output_tokens: number } }).usage;
      facts.push({ taskIndex: c.taskIndex, repeat: r, reward: row.reward as number, verifierSeconds: row.verifier_seconds as number | null,
        inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, hasTrajectory: 'ng_trajectory' in row,
        health: rep.health ?? ('ng_trajectory' in row ? 'healthy' : 'unobserved') });
      if (held !== undefined) emit(held);
      held = JSON.stringify(row);
    }
  }
  if (held !== undefined) {
    if (spec.partialLastLine) {
      while (bad.has(lineNo + 1)) { out.write(GARBAGE[lineNo % GARBAGE.length] + '\n'); bad.delete(++lineNo); }
      out.write(held.slice(0, Math.max(1, Math.floor(held.length / 2))));
    } else {
      emit(held);
    }
  }
  if (!spec.partialLastLine) {
    for (const b of [...bad].sort((x, y) => x - y)) { out.write(GARBAGE[b % GARBAGE.length] + '\n'); }
  }
  out.close();
  put('rollouts', rolloutsPath, T0);
  if (failures.length) put('failures', writeJsonl(path.join(abs, `${stem}_failures.jsonl`), failures), T0 - 5);

  const aggregate = spec.aggregateMetrics ?? 'fresh';
  if (aggregate !== 'none') {
    const expected = new Map(ctxs.map((c) => [c.taskIndex, spec.tasks[c.taskIndex].repeats.length]));
    put('aggregate_metrics', writeJson(path.join(abs, `${stem}_aggregate_metrics.json`), aggregateMetrics(names.agent, facts, expected)),
      aggregate === 'fresh' ? T0 + 2 : T0 - 4000);
  }
  if (spec.health ?? true) {
    put('quality_summary', writeJson(path.join(abs, 'quality_summary.json'), qualitySummary(`${stem}.jsonl`, facts)), T0 + 5);
    put('rollout_verdicts', writeJsonl(path.join(abs, 'rollout_verdicts.jsonl'), facts.map(verdictRow)), T0 + 5);
  }
  applyMtimes(mtimes);
  if (spec.staleOutputs) {
    // Taken "before dispatch" of a fresh start that then died: the outputs above still carry these signatures.
    const sidecar = await writeSignaturesSidecar(rolloutsPath, path.join(abs, `${stem}_signatures.json`));
    if (sidecar) { files.signatures = sidecar; setMtime(sidecar, T0 + 10); }
  }
  return result;
}

function applyMtimes(mtimes: [string, number][]): void {
  for (const [file, t] of mtimes) if (fs.existsSync(file)) setMtime(file, t);
}
