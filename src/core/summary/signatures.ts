// Output signatures (rule 10): what sits under the rollouts, failures and materialized-inputs names, taken before a
// fresh start dispatches. A signature is the file's size, mtime and a SHA-256 of its first 64 KiB; a file "still
// carrying its signature" afterwards has all three unchanged and was left by an earlier run. `null` = no file.
// The sidecar `<stem>_signatures.json` (written by `harbor-runs signatures`) lets a pipeline take them before dispatch:
//   {"schema_version": 1, "rollouts": "<rollouts file name>", "taken_at_ms": <epoch ms>,
//    "signatures": {"rollouts": Sig|null, "failures": Sig|null, "materialized_inputs": Sig|null}}
import { createHash } from 'node:crypto';
import type { FsPort } from '../fs/port';
import type { Problem } from '../model';
import { STALE_KEYS, type StaleKey } from './layout';
import { basename, signaturesPathFor } from './paths';
import { outputPaths } from './files';
import { parseJsonBounded } from '../jsonDepth';
import { jsonFault } from '../trajectory/honest';

export const HEAD_BYTES = 64 * 1024;

export interface FileSignature {
  size: number;
  mtime_ms: number;
  head_sha256: string;
}

export type OutputSignatures = Record<StaleKey, FileSignature | null>;

export interface SignaturesSidecar {
  schema_version: 1;
  rollouts: string;
  taken_at_ms: number;
  /** Recorded before a resumed run (`harbor-runs signatures --resumed`): its cached rows are its own, nothing is stale. */
  resumed?: true;
  signatures: OutputSignatures;
}

/** SHA-256 of the first min(size, 64 KiB) bytes of the file. */
export async function headHash(fs: FsPort, path: string, size: number): Promise<string> {
  const h = createHash('sha256');
  let left = Math.min(size, HEAD_BYTES);
  if (left > 0) {
    for await (const chunk of fs.readChunks(path, HEAD_BYTES)) {
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      h.update(part);
      left -= part.length;
      if (left <= 0) break;
    }
  }
  return h.digest('hex');
}

/** The signature of one file; null when nothing (or a folder) is there. Never throws. */
export async function fileSignature(fs: FsPort, path: string): Promise<FileSignature | null> {
  const st = await fs.stat(path);
  if (!st || st.type !== 'file') return null;
  try {
    return { size: st.size, mtime_ms: st.mtimeMs, head_sha256: await headHash(fs, path, st.size) };
  } catch {
    return { size: st.size, mtime_ms: st.mtimeMs, head_sha256: '' };
  }
}

/**
 * What sits under the run's output names now (`null` marks a name with no file). Something there that is not a
 * regular file (a FIFO, a device, a socket, a folder) is never read and has no signature (`null`): it is said in
 * `problems`, naming it, as every reader says it (docs/untrusted-runs.md).
 */
export async function outputSignatures(fs: FsPort, rolloutsPath: string, problems?: Problem[]): Promise<OutputSignatures> {
  const paths = outputPaths(rolloutsPath);
  const out = {} as OutputSignatures;
  for (const k of STALE_KEYS) {
    out[k] = await fileSignature(fs, paths[k]);
    if (out[k] || !problems) continue;
    const st = await fs.stat(paths[k]);
    if (st && st.type !== 'file') {
      const what = st.type === 'dir' ? 'a folder' : 'not a regular file (a FIFO, a device or a socket)';
      problems.push({ file: paths[k], severity: 'warning', code: 'not-a-file',
        message: `${paths[k]} (${k.replace('_', ' ')}) is there but is ${what}: not read, recorded as no file` });
    }
  }
  return out;
}

export function sameSignature(a: FileSignature | null | undefined, b: FileSignature | null): boolean {
  if (!a || !b) return false;
  return a.size === b.size && a.mtime_ms === b.mtime_ms && a.head_sha256 === b.head_sha256;
}

export function signaturesSidecar(rolloutsPath: string, sigs: OutputSignatures, nowMs: number, resumed = false): SignaturesSidecar {
  return { schema_version: 1, rollouts: basename(rolloutsPath), taken_at_ms: nowMs, ...(resumed ? { resumed: true as const } : {}), signatures: sigs };
}

/**
 * Whether an output grew by appending since its signature (same size-bounded head, larger now): a resumed run
 * appends to the rollouts and failures files it resumes, a fresh start removes and rewrites them. So signatures a
 * fresh start left in the sidecar, followed by a resume that appended, are not this run's dispatch.
 */
export async function appendedSince(fs: FsPort, rolloutsPath: string, sigs: OutputSignatures): Promise<boolean> {
  const paths = outputPaths(rolloutsPath);
  for (const k of ['rollouts', 'failures'] as const) {
    const before = sigs[k];
    if (!before || before.size === 0) continue;
    const st = await fs.stat(paths[k]);
    if (!st || st.type !== 'file' || st.size <= before.size) continue;
    try {
      if (await headHash(fs, paths[k], before.size) === before.head_sha256) return true;
    } catch { /* unreadable: not told apart */ }
  }
  return false;
}

function validSig(v: unknown): FileSignature | null | undefined {
  if (v === null) return null;
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.size !== 'number' || typeof o.mtime_ms !== 'number' || typeof o.head_sha256 !== 'string') return undefined;
  return { size: o.size, mtime_ms: o.mtime_ms, head_sha256: o.head_sha256 };
}

/**
 * Parses signatures from a sidecar document, or from a bare `{rollouts, failures, materialized_inputs}` object.
 * undefined (with a Problem) when it does not hold them.
 */
export function parseSignatures(text: string, file: string, problems: Problem[]): OutputSignatures | undefined {
  let doc: unknown;
  try { doc = parseJsonBounded(text); } catch (e) {
    // Where: a sidecar edited by hand or cut off is found at its line (JSON.parse on Node 20 names a character offset).
    const { line, column, why } = jsonFault(text, e);
    problems.push({ file, line, column, severity: 'error', code: 'signatures-unreadable', message: `${file} is not valid JSON at line ${line}, column ${column}: ${why}` });
    return undefined;
  }
  const holder = doc && typeof doc === 'object' && 'signatures' in (doc as object)
    ? (doc as { signatures: unknown }).signatures : doc;
  if (!holder || typeof holder !== 'object') {
    problems.push({ file, severity: 'error', code: 'signatures-unreadable', message: `${file} holds no output signatures` });
    return undefined;
  }
  const out = {} as OutputSignatures;
  for (const k of STALE_KEYS) {
    const s = validSig((holder as Record<string, unknown>)[k] ?? null);
    if (s === undefined) {
      problems.push({ file, severity: 'error', code: 'signatures-unreadable', jsonPath: ['signatures', k],
        message: `${file}: the signature of '${k}' is not {size, mtime_ms, head_sha256} or null` });
      return undefined;
    }
    out[k] = s;
  }
  return out;
}

/**
 * Reads the `<stem>_signatures.json` sidecar when present; null when it was recorded before a resumed run
 * (`"resumed": true`); undefined when absent or unreadable (a Problem then).
 */
export async function readSignaturesSidecar(fs: FsPort, rolloutsPath: string, problems: Problem[]): Promise<OutputSignatures | null | undefined> {
  const p = signaturesPathFor(rolloutsPath);
  const st = await fs.stat(p);
  if (!st || st.type !== 'file') return undefined;
  try {
    const text = new TextDecoder().decode(await fs.readFile(p));
    if (/"resumed"\s*:\s*true/.test(text)) {
      try { if ((JSON.parse(text) as { resumed?: unknown }).resumed === true) return null; } catch { /* told by parseSignatures */ }
    }
    return parseSignatures(text, p, problems);
  } catch (e) {
    problems.push({ file: p, severity: 'error', code: 'signatures-unreadable', message: `cannot read ${p}: ${(e as Error).message}` });
    return undefined;
  }
}
