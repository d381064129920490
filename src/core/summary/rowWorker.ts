// A row worker (bundled as out/summaryRowWorker.js, started by parallelRows.ts): picks the result-row keys of whole
// lines and answers with one LineOutcome per non-blank line (packed as one JSON text: packOutcomes), so the writer's
// byte scan of a 1 GB file runs on as many threads as there are cores. Two ways to get the lines:
// - a file (parallelFileRows.ts): this worker reads its own groups of a file of this machine (groups index, index +
//   of, …) a piece at a time into the skipper's memory, as far ahead as the caller's credits allow;
// - a job: the whole lines of one chunk the caller read (its buffer travels here and back, transferred, not copied),
//   for a port whose files only the caller can read.
import { parentPort } from 'node:worker_threads';
import * as fs from 'node:fs';
import { packOutcomes, runRowJob, type RowAnswer, type RowJob } from './lineOutcome';
import { setFastSkip } from './scan';
import { FastSkip } from './skipWasm';
import { groupLines, plainRegion, type Region } from './groupLines';
import type { FileAnswer, FileAsk, FileFailed, FileJob } from './parallelFileRows';

// Strings skipped 16 bytes at a time where WebAssembly SIMD runs (skipWasm.ts); by indexOf where it does not.
const fast = FastSkip.create();
setFastSkip(fast);
// The region a group is read into: the skipper's memory (scanned where it lies), or plain memory.
const region: Region = fast ?? plainRegion();

let credits = 0;
let wake: (() => void) | undefined;

function packed(outcomes: RowAnswer['outcomes']): Pick<RowAnswer, 'outcomes' | 'packed'> {
  // One JSON text instead of a structured clone of every row (see packOutcomes); as they are if it cannot be.
  try { return { outcomes: [], packed: packOutcomes(outcomes) }; } catch { return { outcomes }; }
}

async function readFile(job: FileJob): Promise<void> {
  credits += job.window;
  let fd: number | undefined;
  try {
    // Not blocking on a FIFO put where the file was (the caller's port checked it; this is a second open).
    fd = fs.openSync(job.path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    if (!fs.fstatSync(fd).isFile()) throw new Error(`${job.path} is not a file`);
    const f = fd;
    const read = (b: Uint8Array, off: number, len: number, pos: number) => fs.readSync(f, b, off, len, pos);
    for (let k = job.index; ; k += job.of) {
      while (credits <= 0) await new Promise<void>((r) => { wake = r; });
      credits--;
      let last = false;
      try {
        const c = groupLines(read, k, job.chunkSize, job.maxLine, region);
        last = c.last;
        const answer: FileAnswer = { k, lines: c.lines, longs: c.longs, cut: c.cut, bytes: c.bytes, last, ...packed(c.outcomes) };
        parentPort!.postMessage(answer);
      } catch (e) {
        // The caller reads this group again itself, where the error surfaces as it would; the next groups go on here.
        parentPort!.postMessage({ k, failed: String((e as Error)?.message ?? e) } satisfies FileFailed);
      }
      if (last) break;
    }
  } catch (e) {
    parentPort!.postMessage({ k: -1, failed: String((e as Error)?.message ?? e) } satisfies FileFailed);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

parentPort!.on('message', (m: RowJob | FileJob | FileAsk) => {
  if ('credit' in m) { credits += m.credit; wake?.(); wake = undefined; return; }
  if ('path' in m) { void readFile(m); return; }
  const job = m;
  let answer: RowAnswer;
  try {
    answer = runRowJob(job);
    answer = { ...answer, ...packed(answer.outcomes) };
  } catch (e) {
    answer = { id: job.id, bytes: job.bytes, lines: 0, outcomes: [], failed: String((e as Error)?.message ?? e) };
  }
  parentPort!.postMessage(answer, [answer.bytes.buffer as ArrayBuffer]);
});
