// A row worker (bundled as out/summaryRowWorker.js, started by parallelRows.ts): picks the result-row keys of the
// whole lines of one chunk of a rollouts or failures file and answers with one LineOutcome per non-blank line (packed
// as one JSON text: packOutcomes), so the writer's byte scan of a 1 GB file runs on as many threads as there are
// cores. The chunk's buffer travels here and back (transferred, not copied) to be read into again.
import { parentPort } from 'node:worker_threads';
import { packOutcomes, runRowJob, type RowAnswer, type RowJob } from './lineOutcome';
import { setFastSkip } from './scan';
import { FastSkip } from './skipWasm';

// Strings skipped 16 bytes at a time where WebAssembly SIMD runs (skipWasm.ts); by indexOf where it does not.
setFastSkip(FastSkip.create());

parentPort!.on('message', (job: RowJob) => {
  let answer: RowAnswer;
  try {
    answer = runRowJob(job);
    // One JSON text instead of a structured clone of every row (see packOutcomes); as they are if it cannot be.
    try { answer = { ...answer, outcomes: [], packed: packOutcomes(answer.outcomes) }; } catch { /* cloned as they are */ }
  } catch (e) {
    answer = { id: job.id, bytes: job.bytes, lines: 0, outcomes: [], failed: String((e as Error)?.message ?? e) };
  }
  parentPort!.postMessage(answer, [answer.bytes.buffer as ArrayBuffer]);
});
