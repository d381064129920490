// The run files a NeMo Gym run summary names (docs/run-summary.md), checked on disk as the run is read: present,
// gone, outside the run, or there but not a regular file; the stale files an earlier run left; the health verdicts
// they link; and whether the rollouts changed after the summary was written. Used by runSummary.ts.
import * as path from 'node:path';
import type { EntryType, FsPort } from '../../fs/port';
import type { Problem, RunFile } from '../../model';
import { problemAt, type JsonDocument } from '../jsonFile';
import { resolveRel } from './repeatEvidence';
import { fileLabel, normFiles, normStale } from './summaryShape';
import { readVerdicts, type Health } from './verdicts';
import { isInside, outsideMessage } from '../../containment';

/** A run file there under its name but not a regular file: never read, and said, naming it (docs/untrusted-runs.md). */
export function notAFile(file: string, label: string, type: EntryType): Problem {
  const what = type === 'dir' ? 'a folder' : 'not a regular file (a FIFO, a device or a socket)';
  return { file, severity: 'warning', code: 'not-a-file', message: `${file} (${label}) is there but is ${what}: not read` };
}

/** The run files the summary lists, checked on disk now; stale files replace the null entry of their key. */
export async function runFilesOf(fs: FsPort, doc: JsonDocument, root: string, s: Record<string, unknown>, problems: Problem[]): Promise<RunFile[]> {
  const files: RunFile[] = [];
  const stale = normStale(s.stale_files);
  const staleKeys = new Set(stale.map((x) => x.key));
  for (const { key, rel } of normFiles(s.files)) {
    if (rel === null && staleKeys.has(key)) continue;
    if (rel === null) { files.push({ key, label: fileLabel(key), path: null, present: false }); continue; }
    const abs = resolveRel(root, rel);
    if (!isInside(root, abs)) {
      files.push({ key, label: fileLabel(key), path: abs, present: false, outside: true });
      problems.push(problemAt(doc, ['files', key], 'warning', 'outside-run', outsideMessage(`files.${key}`, rel, root)));
      continue;
    }
    const st = await fs.stat(abs);
    // A FIFO or a device under a run file's name is not the file (never read, nor taken as changed since the summary).
    const odd = st?.type === 'other';
    files.push({ key, label: fileLabel(key), path: abs, present: st !== undefined && !odd, ...(st?.type === 'dir' ? { isDir: true } : {}) });
    if (odd) problems.push(notAFile(abs, fileLabel(key).toLowerCase(), 'other'));
    if (!st) {
      problems.push(problemAt(doc, ['files', key], 'warning', 'missing-file',
        `${rel} (${fileLabel(key).toLowerCase()}) is listed by the run summary but is no longer on disk`));
    }
  }
  for (const x of stale) {
    const abs = resolveRel(root, x.rel);
    if (!isInside(root, abs)) {
      files.push({ key: x.key, label: `${fileLabel(x.key)} (stale)`, path: abs, present: false, stale: true, outside: true });
      problems.push(problemAt(doc, x.jsonPath, 'warning', 'outside-run', outsideMessage(`stale_files.${x.key}`, x.rel, root)));
      continue;
    }
    const present = (await fs.stat(abs)) !== undefined;
    files.push({ key: x.key, label: `${fileLabel(x.key)} (stale)`, path: abs, present, stale: true });
    problems.push(problemAt(doc, x.jsonPath, 'warning', 'stale-file',
      `${x.rel} was left by an earlier run under this run's name: its rows are not this run's`));
  }
  return files;
}

/** Health verdicts, when the summary links them and they are still there. */
export async function healthOf(fs: FsPort, files: readonly RunFile[], problems: Problem[]): Promise<Map<string, Health>> {
  const verdictsFile = files.find((f) => f.key === 'rollout_verdicts' && f.present && !f.stale && f.path);
  if (!verdictsFile?.path) return new Map();
  const v = await readVerdicts(fs, verdictsFile.path);
  problems.push(...v.problems);
  return v.byKey;
}

/**
 * Modification times this far apart count as "written after the summary": a checkout or a copy without -p sets the
 * files' times within moments of each other in any order, and must not flag every summary.
 */
const OUTDATED_AFTER_MS = 2000;

/**
 * Whether the rollouts or failures file the summary lists changed after the summary was written (a run still
 * appending, or resumed): one warning per such file at its `files` entry, so the quick fix that rewrites the summary
 * is offered there.
 */
export async function outdatedBy(fs: FsPort, doc: JsonDocument, summaryPath: string, files: RunFile[], problems: Problem[]): Promise<boolean> {
  const own = await fs.stat(summaryPath);
  if (!own) return false;
  let outdated = false;
  for (const f of files) {
    if ((f.key !== 'rollouts' && f.key !== 'failures') || !f.present || f.stale || !f.path) continue;
    const st = await fs.stat(f.path);
    if (!st || st.mtimeMs - own.mtimeMs <= OUTDATED_AFTER_MS) continue;
    outdated = true;
    problems.push(problemAt(doc, ['files', f.key], 'warning', 'summary-outdated',
      `${path.posix.basename(f.path)} changed after this summary was written: rows added since are not in it (Write Run Summary updates it)`));
  }
  return outdated;
}
