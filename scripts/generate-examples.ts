// Writes the committed `examples/` folder (see scripts/sample-runs/examples.ts for what it holds).
// Usage: node out/scripts/generate-examples.js [outDir]   (default: examples/, relative to the working folder)
import * as path from 'node:path';
import { generateExamples } from './sample-runs/examples';

generateExamples(process.argv[2] ?? 'examples').then((dirs) => {
  for (const d of dirs) process.stdout.write(`wrote ${path.relative(process.cwd(), d) || '.'}\n`);
}, (e: unknown) => {
  process.stderr.write(`generate-examples: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
