// The evidence of one repeat of a run summary: its verifier log folder and the files in it, each resolved against
// the summary's folder and checked on disk now (a file deleted since the summary was written is flagged), the
// ctrf.json of the verifier folder when there is one, and the paths the summary itself lists as missing.
import * as path from 'node:path';
import type { EntryType, FileRead, FsPort } from '../../fs/port';
import type { Evidence, EvidenceKind, Problem } from '../../model';
import { ctrfFailedTests, readCtrfFailedTests, type FailedTest } from '../ctrf';
import { problemAt, type JsonDocument } from '../jsonFile';
import { str, type JsonPath } from './summaryShape';
import { isInside, outsideMessage } from '../../containment';

/** A relative path with a '.', '..' or empty segment (or a trailing slash), which resolve would rewrite. */
const NOT_PLAIN = /(^|\/)\.{0,2}(\/|$)/;
/** A normal absolute folder: no trailing slash, no '.', '..' or empty segment. */
const NORMAL_DIR = /^(\/[^/]+)+$/;
let lastRoot = '';
let lastRootNormal = false;

/** An absolute POSIX path for a summary path (relative to the summary's folder, or already absolute). */
export function resolveRel(root: string, rel: string): string {
  // A plain `verifier/x/test-stdout.txt` under a normal folder (every path of a 40,000-repeat summary): joined as is.
  if (root !== lastRoot) { lastRoot = root; lastRootNormal = NORMAL_DIR.test(root) && !/\/\.{1,2}(\/|$)/.test(root); }
  if (lastRootNormal && rel.charCodeAt(0) !== 0x2f && !rel.includes('\\') && !NOT_PLAIN.test(rel)) return `${root}/${rel}`;
  return path.posix.resolve(root, rel.replace(/\\/g, '/'));
}

/** The type a listing gives a name (the last entry of that name, as a Map of the entries would say). */
function typeIn(listing: readonly [string, EntryType][], name: string): EntryType | undefined {
  for (let i = listing.length - 1; i >= 0; i--) if (listing[i][0] === name) return listing[i][1];
  return undefined;
}

/** The last segment of an absolute path ('' for '/'). */
const lastSegment = (abs: string): string => abs.slice(abs.lastIndexOf('/') + 1);

const FIELDS: { key: string; kind: EvidenceKind; isDir: boolean }[] = [
  { key: 'verifier_logs', kind: 'verifier-logs', isDir: true },
  { key: 'test_stdout', kind: 'test-stdout', isDir: false },
  { key: 'reward_file', kind: 'reward-file', isDir: false },
  { key: 'trajectory', kind: 'trajectory', isDir: false },
  { key: 'artifacts', kind: 'artifacts', isDir: true },
];

/** What kind of evidence a path the summary lists as missing is, from its name. */
export function kindOfName(p: string): { kind: EvidenceKind; isDir: boolean } {
  const name = p.split('/').pop() ?? p;
  if (name === 'test-stdout.txt') return { kind: 'test-stdout', isDir: false };
  if (/^reward\.(txt|json)$/.test(name)) return { kind: 'reward-file', isDir: false };
  if (name === 'trajectory.json') return { kind: 'trajectory', isDir: false };
  if (name === 'ctrf.json') return { kind: 'ctrf', isDir: false };
  if (name === 'artifacts') return { kind: 'artifacts', isDir: true };
  return { kind: 'verifier-logs', isDir: true };
}

/** The failed tests of a ctrf.json read beforehand; undefined when it could not be read or parsed (as readCtrfFailedTests). */
function ctrfFromRead(read: FileRead): FailedTest[] | undefined {
  if (read.text === undefined) return undefined;
  try {
    return ctrfFailedTests(JSON.parse(read.text));
  } catch {
    return undefined;
  }
}

export interface RepeatEvidence {
  evidence: Evidence[];
  missing: string[];
  problems: Problem[];
  dir?: string;
}

export async function repeatEvidence(
  fs: FsPort,
  doc: JsonDocument,
  root: string,
  raw: Record<string, unknown>,
  jsonPath: JsonPath,
  who: string,
  opts: {
    readCtrf?: boolean;
    /** Verifier folders listed beforehand (FsPort.listDirs): entries, or undefined when no folder is there. */
    listings?: ReadonlyMap<string, [string, EntryType][] | undefined>;
    /** ctrf.json files read beforehand (FsPort.gather), by path. */
    ctrfs?: ReadonlyMap<string, FileRead>;
  } = {},
): Promise<RepeatEvidence> {
  const evidence: Evidence[] = [];
  const missing: string[] = [];
  const problems: Problem[] = [];
  let dir: string | undefined;
  // The files of a verification sit in its log folder: one listing of it answers for all of them.
  const logsRel = str(raw.verifier_logs);
  const logsResolved = logsRel ? resolveRel(root, logsRel) : undefined;
  const logsAbs = logsResolved && isInside(root, logsResolved) ? logsResolved : undefined;
  // (the entries as listed, searched by name: a Map made of them per repeat was 40,000 Maps of garbage)
  let listing: readonly [string, EntryType][] | undefined;
  let logsStat: { type: EntryType } | undefined;
  if (logsAbs && opts.listings?.has(logsAbs)) {
    const listed = opts.listings.get(logsAbs);
    listing = listed;
    logsStat = listed ? { type: 'dir' } : await fs.stat(logsAbs); // not a folder: maybe a file
  } else if (logsAbs) {
    // readDir gives [] for a folder that is not there: only an empty listing needs a stat to tell the two apart.
    listing = await fs.readDir(logsAbs);
    logsStat = listing.length ? { type: 'dir' } : undefined;
    if (!listing.length) {
      logsStat = await fs.stat(logsAbs);
      if (logsStat?.type !== 'dir') listing = undefined;
    }
  }
  // What the log folder's listing says of a path (no await for those: 40,000 repeats), else a stat.
  const UNKNOWN = null;
  const known = (abs: string): { type: EntryType } | undefined | typeof UNKNOWN => {
    if (abs === logsAbs) return logsStat;
    const slash = abs.lastIndexOf('/');
    if (listing && logsAbs && slash === logsAbs.length && abs.startsWith(logsAbs)) {
      const type = typeIn(listing, abs.slice(slash + 1));
      return type ? { type } : undefined;
    }
    return UNKNOWN;
  };
  const look = (abs: string): { type: EntryType } | undefined | Promise<{ type: EntryType } | undefined> => {
    const k = known(abs);
    return k === UNKNOWN ? fs.stat(abs) : k;
  };
  for (const f of FIELDS) {
    const rel = str(raw[f.key]);
    if (!rel) continue;
    const abs = resolveRel(root, rel);
    if (!isInside(root, abs)) {
      evidence.push({ kind: f.kind, label: f.key === 'verifier_logs' ? 'verifier logs' : lastSegment(abs) || rel, path: abs, isDir: f.isDir, present: false, outside: true });
      problems.push(problemAt(doc, [...jsonPath, f.key], 'warning', 'outside-run', outsideMessage(`${f.key} of ${who}`, rel, root)));
      continue;
    }
    const looked = look(abs);
    const st = looked instanceof Promise ? await looked : looked;
    const present = st !== undefined;
    const ev: Evidence = { kind: f.kind, label: lastSegment(abs) || rel, path: abs, isDir: st ? st.type === 'dir' : f.isDir, present };
    if (f.key === 'verifier_logs') {
      dir = abs;
      ev.label = 'verifier logs';
    }
    if (!present) {
      ev.namedBy = 'the run summary names it';
      missing.push(abs);
      problems.push(problemAt(doc, [...jsonPath, f.key], 'warning', 'missing-evidence',
        `${rel} (${f.key} of ${who}) is named by the run summary but is no longer on disk`));
    }
    evidence.push(ev);
    if (f.key === 'verifier_logs' && present && ev.isDir) {
      const ctrfPath = `${abs}/ctrf.json`;
      const lookedCtrf = look(ctrfPath);
      if ((lookedCtrf instanceof Promise ? await lookedCtrf : lookedCtrf)?.type === 'file') {
        const pre = opts.ctrfs?.get(ctrfPath);
        const failedTests = opts.readCtrf === false ? undefined : pre ? ctrfFromRead(pre) : await readCtrfFailedTests(fs, ctrfPath);
        evidence.push({ kind: 'ctrf', label: 'ctrf.json', path: ctrfPath, isDir: false, present: true, ...(failedTests ? { failedTests } : {}) });
      }
    }
  }
  const listed = Array.isArray(raw.missing) ? raw.missing : [];
  for (const m of listed) {
    const rel = str(m);
    if (!rel) continue;
    const abs = resolveRel(root, rel);
    if (missing.includes(abs)) continue;
    if (!isInside(root, abs)) {
      const { kind, isDir } = kindOfName(abs);
      evidence.push({ kind, label: abs.split('/').pop() || rel, path: abs, isDir, present: false, outside: true });
      problems.push({ file: doc.path, severity: 'warning', code: 'outside-run', message: outsideMessage(`the result row of ${who}`, rel, root) });
      continue;
    }
    const { kind, isDir } = kindOfName(abs);
    const present = (await fs.stat(abs)) !== undefined;
    if (!present) missing.push(abs);
    if (kind === 'verifier-logs' && !dir) dir = abs;
    evidence.push({ kind, label: kind === 'verifier-logs' ? 'verifier logs' : abs.split('/').pop() || rel, path: abs, isDir, present,
      namedBy: `the result row of ${who} names it` });
  }
  return { evidence, missing, problems, dir };
}
