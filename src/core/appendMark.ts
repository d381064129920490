// Where a read of an append-only file (a JSONL log still being written, such as a training run's metrics.jsonl)
// ended, and how to tell, at the next read, that the file has only grown since: the bytes just before that point
// and the file's first bytes are still the same, and the file is not shorter. A file rewritten or replaced is then
// read whole again, never stitched onto an earlier read.
import type { FsPort } from './fs/port';
import type { JsonlPosition } from './jsonl';

/** Bytes kept from before the resume point, and from the file's start. */
const CHECK_BYTES = 256;

export interface AppendMark {
  /** Where the next read goes on from (after the last line with a newline). */
  readonly resume: JsonlPosition;
  /** The file's bytes just before `resume`. */
  readonly before: Uint8Array;
  /** The file's first bytes (at most CHECK_BYTES, never past `resume`). */
  readonly head: Uint8Array;
}

/** `n` bytes of the file from `start` (fewer at its end); empty when it cannot be read now. */
export async function bytesAt(fs: FsPort, path: string, start: number, n: number): Promise<Uint8Array> {
  if (n <= 0) return new Uint8Array(0);
  try {
    for await (const chunk of fs.readChunks(path, n, start)) return chunk.slice(0, n);
  } catch {
    // unreadable now: compared as different, so the file is read whole (and its problem reported then)
  }
  return new Uint8Array(0);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The mark of a read that ended at `resume`. */
export async function markAt(fs: FsPort, path: string, resume: JsonlPosition): Promise<AppendMark> {
  const n = Math.min(CHECK_BYTES, resume.byte);
  const before = await bytesAt(fs, path, resume.byte - n, n);
  const head = resume.byte <= CHECK_BYTES ? before.slice(0, Math.min(n, resume.byte)) : await bytesAt(fs, path, 0, n);
  return { resume, before, head };
}

/**
 * Whether the file now holds what it held when `mark` was taken, with only bytes added after it (so a read can go on
 * from `mark.resume`). A mark at the file's start never continues (there is nothing to go on from).
 */
export async function grownSince(fs: FsPort, path: string, mark: AppendMark | undefined): Promise<boolean> {
  if (!mark || mark.resume.byte <= 0 || mark.before.length === 0) return false;
  const st = await fs.stat(path);
  if (!st || st.size < mark.resume.byte) return false;
  const n = mark.before.length;
  if (!sameBytes(await bytesAt(fs, path, mark.resume.byte - n, n), mark.before)) return false;
  if (mark.resume.byte <= CHECK_BYTES) return true; // the head is inside the bytes just compared
  return sameBytes(await bytesAt(fs, path, 0, mark.head.length), mark.head);
}
