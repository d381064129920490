// Writes the JSON Schema of the run summary document (from its one zod definition, src/core/schemas/runSummary.ts)
// to schemas/run-summary.schema.json, which package.json contributes through `jsonValidation` for
// `*_run_summary.json`. esbuild.mjs runs it after every build (out/scripts/export-schema.js); the repository root is
// found from this file's own folder, so it works from any working directory.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { RunSummarySchema, RUN_SUMMARY_SCHEMA_VERSION } from '../src/core/schemas/runSummary';

export function repoRootFrom(dir: string): string {
  let d = dir;
  for (;;) {
    if (fs.existsSync(path.join(d, 'package.json'))) return d;
    const up = path.dirname(d);
    if (up === d) throw new Error(`no package.json above ${dir}`);
    d = up;
  }
}

export function runSummaryJsonSchema(): Record<string, unknown> {
  // schema_version is ours: a summary NeMo Gym's own writer wrote has none, and the editor must not flag it.
  const lenient = RunSummarySchema.partial({ schema_version: true });
  const schema = z.toJSONSchema(lenient, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    title: '<rollouts stem>_run_summary.json',
    description: `The per-run summary of a NeMo Gym Harbor run (schema_version ${RUN_SUMMARY_SCHEMA_VERSION}); see docs/run-summary.md.`,
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

// (Run as a script only: when bundled into a test, require.main === module holds for the test file too.)
if (require.main === module && /export-schema\.js$/.test(process.argv[1] ?? '')) {
  const root = repoRootFrom(__dirname);
  const out = path.join(root, 'schemas', 'run-summary.schema.json');
  const text = `${JSON.stringify(runSummaryJsonSchema(), null, 2)}\n`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  if (!fs.existsSync(out) || fs.readFileSync(out, 'utf8') !== text) fs.writeFileSync(out, text);
}
