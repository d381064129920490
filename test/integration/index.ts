// The mocha runner that VS Code's extension host loads (extensionTestsPath). TDD interface (suite/test/setup/teardown).
// Loads every out/test/integration/**/*.test.js and prints `@@counts {"passed":N,"failed":M,"pending":K}` for the
// aggregator (the code-shim forwards the extension host's console to its stdout). Rejects when anything failed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (e.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, slow: 5_000 });
  const grep = process.env.HARBOR_RUNS_GREP;
  if (grep) mocha.grep(grep);
  for (const f of testFiles(__dirname)) mocha.addFile(f);
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const counts = { passed: runner.stats?.passes ?? 0, failed: failures, pending: runner.stats?.pending ?? 0 };
        console.log(`@@counts ${JSON.stringify(counts)}`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (e) {
      console.log(`@@counts ${JSON.stringify({ passed: 0, failed: 1, pending: 0 })}`);
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
