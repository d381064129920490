// Generates one sample run of any size from the command line (benchmarks, manual checks):
//   node out/scripts/sample-runs/cli.js nemo   <dir> [tasks=1000] [repeats=8] [transcriptBytes=20000] [seed=1]
//   node out/scripts/sample-runs/cli.js harbor <jobsDir> [tasks=1000] [attempts=4] [seed=1]
//   node out/scripts/sample-runs/cli.js viewer <dataDir> [tasks=1000] [kMax=4] [seed=1]
//   node out/scripts/sample-runs/cli.js every  <dir>     (one run of each kind with every case)
import * as path from 'node:path';
import { generateNemoRun, nemoEveryCase, nemoLarge } from './nemoGym';
import { generateHarborJob, harborEveryCase, harborLarge } from './harborJob';
import { generateViewerData, viewerEveryCase, viewerLarge } from './viewerData';

const USAGE = 'usage: cli.js nemo|harbor|viewer|every <dir> [size arguments]\n';

export async function main(argv: string[]): Promise<number> {
  const [kind, dir, ...rest] = argv;
  const n = (i: number, d: number) => {
    const v = Number(rest[i]);
    return Number.isFinite(v) && v >= 0 ? Math.floor(v) : d;
  };
  if (!kind || !dir) { process.stderr.write(USAGE); return 2; }
  const t = Date.now();
  switch (kind) {
    case 'nemo': {
      const r = await generateNemoRun(dir, nemoLarge(n(0, 1000), n(1, 8), n(2, 20000)), { seed: n(3, 1) });
      process.stdout.write(`${r.rolloutsPath}\n`);
      break;
    }
    case 'harbor': {
      const r = await generateHarborJob(dir, harborLarge(n(0, 1000), n(1, 4)), { seed: n(2, 1) });
      process.stdout.write(`${r.jobDir}\n`);
      break;
    }
    case 'viewer': {
      const r = await generateViewerData(dir, viewerLarge(n(0, 1000), { kMax: n(1, 4) }), { seed: n(2, 1) });
      process.stdout.write(`${r.projectDir}\n`);
      break;
    }
    case 'every': {
      const a = await generateNemoRun(path.join(dir, 'nemo-gym', 'tb-mini'), nemoEveryCase());
      const b = await generateHarborJob(path.join(dir, 'harbor', 'jobs'), harborEveryCase());
      const c = await generateViewerData(path.join(dir, 'viewer-data'), viewerEveryCase());
      process.stdout.write(`${path.dirname(a.rolloutsPath)}\n${b.jobDir}\n${c.projectDir}\n`);
      break;
    }
    default:
      process.stderr.write(USAGE);
      return 2;
  }
  process.stderr.write(`generated in ${Date.now() - t} ms\n`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  });
}
