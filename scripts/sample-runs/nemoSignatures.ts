// The `<stem>_signatures.json` sidecar of a stale fresh start: the output signatures a pipeline took "before
// dispatch", in the summary writer's own format (src/core/summary/signatures.ts), taken of the outputs on disk so
// that they still match: the files were left by an earlier run the collector never reached.
import { NodeFs } from '../../src/core/fs/nodeFs';
import { outputSignatures, signaturesSidecar } from '../../src/core/summary/signatures';
import { writeJson } from './util';

/** Writes the sidecar for `rolloutsPath` to `sidecarPath`; returns its path. */
export async function writeSignaturesSidecar(rolloutsPath: string, sidecarPath: string): Promise<string> {
  const sigs = await outputSignatures(new NodeFs(), rolloutsPath);
  // taken_at_ms: just after the outputs' own mtimes, deterministic (not the wall clock).
  const newest = Math.max(0, ...Object.values(sigs).map((s) => (s ? s.mtime_ms : 0)));
  return writeJson(sidecarPath, signaturesSidecar(rolloutsPath, sigs, newest + 5000));
}
