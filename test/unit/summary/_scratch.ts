import { buildRunSummary, writeRunSummary, serializeSummary } from '../../../src/core/summary';
import { NodeFsWithRemove } from '../../../src/cli/commands/summary';
async function main() {
  const fs = new NodeFsWithRemove();
  const p = process.argv[2];
  if (!p) return;
  for (let i = 0; i < 3; i++) {
    let t = Date.now();
    const b = await buildRunSummary(fs, p);
    const t1 = Date.now() - t; t = Date.now();
    const s = serializeSummary(b.document);
    const t2 = Date.now() - t; t = Date.now();
    await writeRunSummary(fs, p);
    console.log('build', t1, 'ser', t2, 'write(total)', Date.now() - t, s.length);
  }
}
void main();
