// Places problems found after a large summary was parsed on the summary worker (summaryDoc.ts placeLater): the file is
// read again, a piece at a time, decoded as readJsonDocument decodes it and digested as the first worker digested its
// text (SHA-256 of the UTF-8 of the text, in pieces), and the paths are looked for in the text read so far, each time
// it has doubled. A path whose value ends before the text read so far ends has its place (JsonLocator.extentOf); once
// every path has one, the rest of the file is only digested, not kept (on the caller's thread when the first megabyte
// places them all: no worker, and its ~25 MB, for the common case). The missing_paths of a 40,000-repeat summary,
// which come before its tasks, are placed from its first megabyte: the 40 MB of bytes and the 40 MB text a whole read
// held at the very end of the read (~90 MB of RSS) are no longer held.
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as fs from 'node:fs';
import { JsonLocator } from '../../jsonLocator';
import { DEFAULT_MAX_FILE_BYTES } from '../../fs/port';
import { maxFileBytesFromEnv } from '../../fs/nodeFs';

type JsonPath = (string | number)[];
type Place = { line: number; column: number } | undefined;

/**
 * Bytes read per piece: small enough that a piece's text (and its UTF-8 for the digest) is a young object, collected
 * as it goes (1 MB pieces are large objects, left for a full collection: ~75 MB of RSS for a 40 MB file).
 */
const PIECE_BYTES = 48 << 10;
/** Characters of text kept before the paths are first looked for (then each time it has doubled). */
const FIRST_TRY_CHARS = 1 << 20;

/** Where each path is in `text` (cut short unless `whole`): placed only when certain; undefined where not (yet). */
function placeIn(text: string, whole: boolean, paths: readonly JsonPath[], places: Place[], open: Set<number>): void {
  const locator = new JsonLocator(text);
  for (const i of [...open]) {
    const at = locator.extentOf(paths[i]);
    if (!whole && (!at || at[1] >= text.length)) continue;
    open.delete(i);
    if (at) { const s = locator.spanOf(paths[i])!; places[i] = { line: s.line + 1, column: s.character + 1 }; }
  }
}

/**
 * Where `job.paths` are in the file, read again; none placed when it cannot be read, is over `maxBytes`, or is no
 * longer the text that was parsed (`digest`). `keepChars`: undefined (given up) as soon as a path needs more text
 * than this (the caller's thread places what the start of the file places, and leaves the rest to a worker).
 */
export async function placeInFile(job: { path: string; maxBytes?: number; digest: string; paths: JsonPath[] }): Promise<Place[]>;
export async function placeInFile(job: { path: string; maxBytes?: number; digest: string; paths: JsonPath[] }, keepChars: number): Promise<Place[] | undefined>;
export async function placeInFile(job: { path: string; maxBytes?: number; digest: string; paths: JsonPath[] }, keepChars = Infinity): Promise<Place[] | undefined> {
  const none = () => job.paths.map(() => undefined);
  const places: Place[] = none();
  const open = new Set(job.paths.map((_, i) => i));
  const max = job.maxBytes ?? maxFileBytesFromEnv() ?? DEFAULT_MAX_FILE_BYTES; // (as NodeFs reads)
  const h = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let kept: string[] = [];
  let keptChars = 0;
  let tryAt = FIRST_TRY_CHARS;
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(job.path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    if (!(await handle.stat()).isFile()) return none();
    const buf = Buffer.allocUnsafe(PIECE_BYTES);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      total += bytesRead;
      if (total > max) return none();
      const text = bytesRead ? decoder.decode(buf.subarray(0, bytesRead), { stream: true }) : decoder.decode();
      h.update(text);
      if (open.size) {
        kept.push(text);
        keptChars += text.length;
        if (keptChars >= tryAt || !bytesRead) {
          const sofar = kept.join('');
          kept = [sofar];
          placeIn(sofar, !bytesRead, job.paths, places, open);
          if (open.size && keptChars >= keepChars) return undefined;
          tryAt = Math.min(keptChars * 2, Math.max(keepChars, keptChars + 1));
          if (!open.size) kept = [];
        }
      }
      if (!bytesRead) break;
    }
  } catch {
    return none();
  } finally {
    await handle?.close().catch(() => undefined);
  }
  return h.digest('hex') === job.digest ? places : none();
}
