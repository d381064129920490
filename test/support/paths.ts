// Where things are, for tests of every layer (built to out/test/**, run from anywhere).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root: the nearest folder above this file with a package.json named harbor-runs. */
export function repoRoot(from = __dirname): string {
  for (let d = from; ; d = path.dirname(d)) {
    const pkg = path.join(d, 'package.json');
    if (fs.existsSync(pkg) && (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'harbor-runs') return d;
    if (path.dirname(d) === d) throw new Error(`no harbor-runs package.json above ${from}`);
  }
}
