// The evidence of a Harbor trial (or of one step of a multi-step trial): what is on disk, and what should be and
// is not, from the folders' listings and the few files read beforehand (trialFiles.ts): no file access here.
import type { EntryType, FsPort } from '../../fs/port';
import type { Evidence, EvidenceKind, Problem, RewardProvenance } from '../../model';
import { ctrfFailedTests } from '../ctrf';
import { issueProblems, type JsonDocument } from '../jsonFile';
import { ArtifactManifestSchema } from '../../schemas/harbor';
import { safeParsePlain } from '../../schemas/plainCheck';
import { joinPath } from './paths';

/** Collects evidence, the paths that are missing, and the problems found on the way. */
export class EvidenceList {
  readonly evidence: Evidence[] = [];
  readonly missing: string[] = [];
  readonly problems: Problem[] = [];
  /** Reward provenance findings of the verifier folders read into this list. */
  readonly provenance: RewardProvenance[] = [];

  constructor(readonly who: string) {}

  present(kind: EvidenceKind, label: string, path: string, isDir = false, extra?: Partial<Evidence>): Evidence {
    const e: Evidence = extra ? { kind, label, path, isDir, present: true, ...extra } : { kind, label, path, isDir, present: true };
    this.evidence.push(e);
    return e;
  }

  /**
   * Evidence that should be there and is not: listed, added to `missing` and reported as a 'missing-path' problem.
   * `found`: what the folder's listing has under that name, when something else is there (a folder, or a FIFO, a
   * device, a socket or a broken link: never read, docs/untrusted-runs.md): then the problem is 'not-a-file' and
   * says so, since nothing was pruned.
   */
  absent(kind: EvidenceKind, label: string, path: string, namedBy: string, isDir = false, found?: EntryType): Evidence {
    const e: Evidence = { kind, label, path, isDir, present: false, namedBy };
    this.evidence.push(e);
    this.missing.push(path);
    const other = found === undefined || found === (isDir ? 'dir' : 'file') ? undefined
      : found === 'dir' ? 'a folder' : 'not a regular file (a FIFO, a device, a socket or a broken link)';
    this.problems.push(other === undefined
      ? { file: path, severity: 'warning', code: 'missing-path', message: `${this.who}: ${label} is missing (${namedBy})` }
      : { file: path, severity: 'warning', code: 'not-a-file', message: `${this.who}: ${label} is there but is ${other}, so it was not read (${namedBy})` });
    return e;
  }

  /** Takes over another list's missing paths and problems (a step's), keeping its evidence as children. */
  absorb(other: EvidenceList): void {
    this.missing.push(...other.missing);
    this.problems.push(...other.problems);
    this.provenance.push(...other.provenance);
  }
}

export type Listing = Map<string, EntryType>;

export async function listDir(fs: FsPort, dir: string): Promise<Listing> {
  try {
    return new Map(await fs.readDir(dir));
  } catch {
    return new Map();
  }
}

/** Agents that write no ATIF trajectory (SUPPORTS_ATIF=False in Harbor; docs/formats.md#harbor-exceptions). */
export const NON_ATIF_AGENTS: ReadonlySet<string> = new Set([
  'oracle', 'nop', 'aider', 'deerflow', 'fx', 'kimi-code', 'langgraph', 'mcode', 'pi', 'dspy-rlm',
]);

export function writesTrajectory(agentName: string | null | undefined): boolean {
  if (!agentName) return false;
  return !NON_ATIF_AGENTS.has(agentName.toLowerCase().replace(/_/g, '-'));
}

const CONT_RE = /^trajectory\.cont-(\d+)\.json$/;

/** agent/: the folder, trajectory.json and its trajectory.cont-N.json continuations (in N order). */
export function agentEvidence(list: EvidenceList, agentDir: string, entries: Listing, expectTrajectory: string | null): void {
  if (entries.size === 0 && !expectTrajectory) return;
  if (entries.size > 0) list.present('agent-logs', 'agent/', agentDir, true);
  const traj = joinPath(agentDir, 'trajectory.json');
  if (entries.get('trajectory.json') === 'file') list.present('trajectory', 'trajectory.json', traj);
  else if (expectTrajectory) list.absent('trajectory', 'trajectory.json', traj, expectTrajectory, false, entries.get('trajectory.json'));
  // Continuations are rare: no array unless the folder has one.
  let conts: { n: string; k: number }[] | undefined;
  for (const [n, type] of entries) {
    if (type !== 'file' || !n.startsWith('trajectory.cont-')) continue;
    const m = CONT_RE.exec(n);
    if (m) (conts ??= []).push({ n, k: Number(m[1]) });
  }
  if (!conts) return;
  conts.sort((a, b) => a.k - b.k);
  for (const { n } of conts) list.present('trajectory', n, joinPath(agentDir, n));
}

const TEST_OUTPUTS = ['test-stdout.txt', 'test-stderr.txt'] as const;
const REWARD_FILES = ['reward.json', 'reward.txt'] as const;

/**
 * verifier/: the folder, test-stdout.txt (and legacy test-stderr.txt), reward.json / reward.txt, ctrf.json with its
 * failed tests (when it was read: `ctrf`), reward-details.json. `expectReward` names why a reward file should exist
 * (the verifier ran); `provenance`: the reward provenance findings of the folder (provenance.ts).
 */
export function verifierEvidence(
  list: EvidenceList, verifierDir: string, entries: Listing, expectReward: { why: string; file: string } | null,
  ctrf: JsonDocument | undefined, provenance: readonly RewardProvenance[] = [],
): void {
  if (entries.size === 0 && !expectReward) return;
  if (entries.size > 0) list.present('verifier-logs', 'verifier/', verifierDir, true);
  const file = (name: string) => entries.get(name) === 'file';
  for (const name of TEST_OUTPUTS) {
    if (file(name)) list.present('test-stdout', name, joinPath(verifierDir, name));
  }
  let reward = false;
  for (const name of REWARD_FILES) {
    if (file(name)) { list.present('reward-file', name, joinPath(verifierDir, name)); reward = true; }
  }
  if (!reward && expectReward) {
    list.absent('reward-file', expectReward.file, joinPath(verifierDir, expectReward.file), expectReward.why, false, entries.get(expectReward.file));
  }
  if (file('ctrf.json')) {
    const path = joinPath(verifierDir, 'ctrf.json');
    if (ctrf) list.problems.push(...ctrf.problems);
    list.present('ctrf', 'ctrf.json', path, false, ctrf?.ok ? { failedTests: ctrfFailedTests(ctrf.value) } : {});
  }
  if (file('reward-details.json')) {
    list.present('verifier-logs', 'reward-details.json', joinPath(verifierDir, 'reward-details.json'));
  }
  list.provenance.push(...provenance);
  for (const f of provenance) {
    if (f.severity === 'warning') list.problems.push({ file: f.file, severity: 'warning', code: f.code, message: `${list.who}: ${f.message}` });
  }
}

/** artifacts/: the folder and its manifest.json (entries that failed to collect are reported, not fatal). */
export function artifactsEvidence(list: EvidenceList, artifactsDir: string, entries: Listing, manifest: JsonDocument | undefined): void {
  if (entries.size === 0) return;
  list.present('artifacts', 'artifacts/', artifactsDir, true);
  if (entries.get('manifest.json') !== 'file') return;
  const path = joinPath(artifactsDir, 'manifest.json');
  list.present('artifacts', 'manifest.json', path);
  if (!manifest) return;
  list.problems.push(...manifest.problems);
  if (!manifest.ok) return;
  const parsed = safeParsePlain(ArtifactManifestSchema, manifest.value);
  if (!parsed.success) {
    list.problems.push(...issueProblems(manifest, parsed.error.issues, 'artifacts/manifest.json', 5));
    return;
  }
  for (const entry of parsed.data) {
    if (entry.status === 'failed') {
      list.problems.push({
        file: path, severity: 'info', code: 'artifact-failed',
        message: `artifact ${entry.source}${entry.service ? ` (service ${entry.service})` : ''} could not be collected`,
      });
    }
  }
}
