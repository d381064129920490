// Walks a generated folder: every file (relative POSIX path → bytes), for determinism checks and size budgets.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p).split(path.sep).join('/'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

export function snapshot(dir: string): Map<string, Buffer> {
  return new Map(listFiles(dir).map((rel) => [rel, fs.readFileSync(path.join(dir, rel))]));
}

/** The first difference between two snapshots, or undefined when they are byte-identical. */
export function firstDifference(a: Map<string, Buffer>, b: Map<string, Buffer>): string | undefined {
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  for (const n of names) {
    const x = a.get(n);
    const y = b.get(n);
    if (!x) return `only in the second: ${n}`;
    if (!y) return `only in the first: ${n}`;
    if (!x.equals(y)) return `bytes differ: ${n}`;
  }
  return undefined;
}

export function totalBytes(dir: string): number {
  return listFiles(dir).reduce((n, rel) => n + fs.statSync(path.join(dir, rel)).size, 0);
}
