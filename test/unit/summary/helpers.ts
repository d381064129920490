// Shared helpers of the run-summary tests: temp dirs, the shared NeMo Gym fixture (copied with its mtimes applied),
// and the NodeFs the CLI uses (it can remove files, so dead writers' temp files are cleaned).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { NodeFs } from '../../../src/core/fs/nodeFs';

export const nodeFs = new NodeFs();

/** The repository root: the nearest folder up from here holding package.json. */
export function repoRoot(): string {
  let d = __dirname;
  while (!fs.existsSync(path.join(d, 'package.json'))) {
    const up = path.dirname(d);
    if (up === d) return process.cwd();
    d = up;
  }
  return d;
}

export function fixtureDir(): string | undefined {
  const d = path.resolve(repoRoot(), '..', 'shared', 'fixtures', 'nemo-gym');
  return fs.existsSync(path.join(d, 'rollouts.jsonl')) ? d : undefined;
}

// One temp root per test file, made at import (so `after` registers at the file's top level, not inside a test)
// and removed when the file's tests are done.
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-summary-'));
after(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

/** A fresh folder under this test file's temp root. */
export function tmpDir(label: string): string {
  return fs.mkdtempSync(path.join(tmpRoot, `${label}-`));
}

/** Copies the fixture (without real/ and variants/) into a temp dir, writable, with mtimes.json applied. */
export function copyFixture(src: string): string {
  const dest = tmpDir('fixture');
  fs.cpSync(src, dest, { recursive: true, filter: (p) => !/[/\\](real|variants)$/.test(p) });
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      fs.chmodSync(p, e.isDirectory() ? 0o755 : 0o644);
      if (e.isDirectory()) walk(p);
    }
  };
  fs.chmodSync(dest, 0o755);
  walk(dest);
  const mtimes = JSON.parse(fs.readFileSync(path.join(dest, 'mtimes.json'), 'utf8')) as Record<string, number>;
  for (const [rel, t] of Object.entries(mtimes)) {
    const p = path.join(dest, rel);
    if (fs.existsSync(p)) fs.utimesSync(p, t, t);
  }
  return dest;
}

export function readJson(p: string): unknown {
  return JSON.parse(fs.readFileSync(p, 'utf8'));
}

export function setMtime(p: string, seconds: number): void {
  fs.utimesSync(p, seconds, seconds);
}

/** The posix absolute form FsPort expects. */
export function posix(p: string): string {
  return path.resolve(p).split(path.sep).join('/');
}
