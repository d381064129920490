// Shared by the hostile-runs tests: generated runs on disk, the built CLI run with a hard timeout and its peak memory,
// and a check that nothing outside a folder was touched.
import { after } from 'node:test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateNemoRun, nemoEveryCase } from '../../../scripts/sample-runs/nemoGym';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { writeRunSummary } from '../../../src/core/summary';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-runs-hostile-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

export function tempDir(prefix = 'run-'): string {
  return fs.mkdtempSync(path.join(tmpRoot, prefix)).split(path.sep).join('/');
}

/** A NeMo Gym run of every case (7 tasks) with its run summary written; returns the folder and the files. */
export async function nemoRunWithSummary(): Promise<{ dir: string; rollouts: string; summary: string }> {
  const dir = tempDir('nemo-');
  const res = await generateNemoRun(dir, nemoEveryCase());
  const w = await writeRunSummary(new NodeFs(), res.rolloutsPath, { identity: res.identity });
  if (w.error) throw new Error(w.error);
  return { dir, rollouts: res.rolloutsPath, summary: w.path };
}

const cli = path.resolve(__dirname, '..', '..', '..', 'cli.js');
/** Prints the process's peak resident memory (KB) to stderr as `@@maxrss N` when it exits. */
const rssProbe = path.join(tmpRoot, 'rss-probe.js');
fs.writeFileSync(rssProbe, "process.on('exit', () => process.stderr.write(`\\n@@maxrss ${process.resourceUsage().maxRSS}\\n`));\n");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
  ms: number;
  /** Peak resident memory in MB (undefined when the process was killed before it could say). */
  rssMb?: number;
}

/** Runs the built CLI, killed after timeoutMs (a hang shows as signal SIGKILL), capped at 512 MB of heap. */
export function runCli(args: string[], timeoutMs = 20_000, env: Record<string, string> = {}): CliResult {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--max-old-space-size=512', '-r', rssProbe, cli, ...args], {
    encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', cwd: os.tmpdir(), env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
  const m = /@@maxrss (\d+)/.exec(r.stderr ?? '');
  return { code: r.status, signal: r.signal, out: r.stdout ?? '', err: r.stderr ?? '', ms: performance.now() - t0,
    ...(m ? { rssMb: Number(m[1]) / 1024 } : {}) };
}

/** Snapshot of every entry (path → mtime, size, type) below dir, links not followed. */
export function treeState(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      out.set(p, `${st.mtimeMs}:${st.size}:${st.mode}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}
