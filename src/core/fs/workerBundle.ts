// Where a worker thread's bundle is (esbuild writes each worker as its own file, e.g. out/summaryRowWorker.js):
// beside the bundle running this code, or in a folder above it (tests and benchmarks are bundled below out/).
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';

/** The path of the worker bundle `file`, or undefined when there is none (the caller then works on its own thread). */
export function workerBundle(file: string): string | undefined {
  let d = typeof __dirname === 'string' ? __dirname : undefined;
  for (let k = 0; d && k < 5; k++, d = nodePath.dirname(d)) {
    const f = nodePath.join(d, file);
    if (nodeFs.existsSync(f)) return f;
  }
  return undefined;
}
