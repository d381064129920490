// Trajectory viewer at scale: a generated 10,000-step, ~100 MB ATIF trajectory. Prints, each as a ratio to a floor
// measured in the same run (reading the file and JSON.parse of it): the view-model build (loadTrajectory), the
// search index build, and the median time of several searches (target: < 200 ms each), plus the size of the first
// screen the host sends the webview (the step outline) and the longest event-loop block while loading — on this
// thread, and with the editor's worker thread (out/trajectoryWorker.js) doing the reading, as the extension host does.
// Run: npm run bench  (env STEPS, MB, ROUNDS to change the size)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bigTrajectory } from '../scripts/sample-runs/atifFeatures';
import { NodeFs } from '../src/core/fs/nodeFs';
import { loadTrajectory, TrajectorySearch } from '../src/core/trajectory';
import { outlineOf } from '../src/core/trajectory/outline';
import { RemoteTrajectory } from '../src/core/trajectory/remote';

const STEPS = Number(process.env.STEPS) || 10_000;
const MB = Number(process.env.MB) || 100;
const ROUNDS = Number(process.env.ROUNDS) || 5;

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'traj-bench-'));
  try {
    const file = path.join(dir, 'trajectory.json');
    let t0 = process.hrtime.bigint();
    fs.writeFileSync(file, JSON.stringify(bigTrajectory(STEPS, MB * 1024 * 1024)));
    const size = fs.statSync(file).size;
    console.log(`generated ${STEPS} steps, ${(size / 1048576).toFixed(1)} MB in ${ms(t0).toFixed(0)} ms`);

    const floors: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      t0 = process.hrtime.bigint();
      JSON.parse(fs.readFileSync(file, 'utf8'));
      floors.push(ms(t0));
    }
    const floor = median(floors);

    const builds: number[] = []; const indexes: number[] = []; const searches: number[] = [];
    let outlineBytes = 0; let steps = 0; let hits = 0; let maxBlock = 0;
    const queries = ['make: entering', 'PYTEST', 'zzz-not-there', 'call_5000_1', 'warning: unused variable line'];
    for (let i = 0; i < ROUNDS; i++) {
      let last = performance.now();
      const tick = setInterval(() => { const now = performance.now(); maxBlock = Math.max(maxBlock, now - last - 5); last = now; }, 5);
      t0 = process.hrtime.bigint();
      const view = await loadTrajectory(new NodeFs(), file.split(path.sep).join('/'));
      builds.push(ms(t0));
      clearInterval(tick);
      steps = view.steps.length;
      outlineBytes = JSON.stringify(outlineOf(view)).length;
      const s = new TrajectorySearch(view);
      t0 = process.hrtime.bigint();
      s.build();
      indexes.push(ms(t0));
      for (const q of queries) {
        t0 = process.hrtime.bigint();
        hits = s.search(q).total;
        searches.push(ms(t0));
      }
    }
    const b = median(builds); const ix = median(indexes); const sr = median(searches); const worst = Math.max(...searches);
    console.log(`floor (read + JSON.parse)   ${floor.toFixed(0)} ms`);
    console.log(`view model build            ${b.toFixed(0)} ms  (${(b / floor).toFixed(2)}× floor)  ${steps} steps`);
    console.log(`search index build          ${ix.toFixed(0)} ms  (${(ix / floor).toFixed(2)}× floor)`);
    console.log(`search, median of ${searches.length}        ${sr.toFixed(1)} ms  (${(sr / floor).toFixed(3)}× floor), worst ${worst.toFixed(1)} ms — target < 200 ms: ${worst < 200 ? 'met' : 'NOT met'} (last query: ${hits} hits)`);
    console.log(`first screen sent (outline) ${(outlineBytes / 1048576).toFixed(2)} MB for ${steps} steps`);
    console.log(`longest event-loop block while building: ${maxBlock.toFixed(0)} ms (the build is one synchronous parse + walk)`);

    // The editor's way: the worker reads and builds; this thread waits for the outline (the first screen's data).
    let wBlock = 0;
    let last = performance.now();
    const tick = setInterval(() => { const now = performance.now(); wBlock = Math.max(wBlock, now - last - 5); last = now; }, 5);
    t0 = process.hrtime.bigint();
    const remote = await RemoteTrajectory.open(path.resolve(__dirname, '../trajectoryWorker.js'), file.split(path.sep).join('/'), dir);
    const outline = await remote.ask('outline', []);
    const firstScreen = ms(t0);
    await remote.done;
    const all = ms(t0);
    t0 = process.hrtime.bigint();
    const first = await remote.ask('search', [], queries[0]);
    const firstSearch = ms(t0);
    clearInterval(tick);
    remote.dispose();
    console.log(`worker: first page (outline) ${firstScreen.toFixed(0)} ms (${(firstScreen / floor).toFixed(2)}× floor), ${outline?.rows.length} rows; everything read ${all.toFixed(0)} ms (${(all / floor).toFixed(2)}× floor)`);
    console.log(`worker: first search after the load (index built while reading) ${firstSearch.toFixed(0)} ms, ${first.total} hits`);
    console.log(`longest event-loop block on this thread while the worker loads and searches: ${wBlock.toFixed(0)} ms`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
