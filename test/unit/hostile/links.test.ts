// Item 3 of docs/untrusted-runs.md: links in discovery. Each real folder is read once, at its own path; a link whose
// target is inside the folder searched is skipped (said so), a link leaving it (a folder, or a run file) is never
// followed (said so); a loop ends; a link to / does not scan the machine. Through the core and the built CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { describeCap, describeLink, discoverRuns, emptyDiscoveryReport } from '../../../src/core/discovery';
import { generateHarborJob, harborEveryCase } from '../../../scripts/sample-runs/harborJob';
import { addLink } from '../../../scripts/sample-runs/hostile';
import { nemoRunWithSummary, runCli, tempDir } from './helpers';
import { RunStore } from '../../../src/views/runStore';
import { type MessageNode, makeRunNode, rootChildren } from '../../../src/views/tree/nodes';
import { describe } from '../../../src/views/tree/describe';
import { defaultViewState } from '../../../src/views/tree/viewState';

const nfs = new NodeFs();

/** A workspace with one Harbor job and every kind of hostile link; a second job outside it. */
async function linkedWorkspace(): Promise<{ ws: string; job: string; outside: string; outsideJob: string }> {
  const ws = tempDir('ws-');
  const { jobDir } = await generateHarborJob(`${ws}/jobs`, harborEveryCase());
  const outside = tempDir('elsewhere-');
  const { jobDir: outsideJob } = await generateHarborJob(`${outside}/jobs`, harborEveryCase());
  const nemo = await nemoRunWithSummary(); // outside the workspace too
  addLink(`${ws}/jobs`, 'latest', path.basename(jobDir)); // jobs/latest -> the job: listed once
  addLink(`${ws}/jobs`, 'loop', '..'); // jobs/loop -> the workspace: a loop
  addLink(ws, 'everything', '/'); // the whole machine
  addLink(ws, 'elsewhere', outside); // another folder with a job
  fs.mkdirSync(`${ws}/nemo`);
  addLink(`${ws}/nemo`, path.basename(nemo.summary), nemo.summary); // a run file linking out
  return { ws, job: jobDir, outside, outsideJob };
}

test('discovery: a job linked inside is listed once, a loop ends, links leaving the folder are not followed and are reported', { timeout: 30_000 }, async () => {
  const { ws, job, outside } = await linkedWorkspace();
  const report = emptyDiscoveryReport();
  const t0 = performance.now();
  const runs = await discoverRuns(nfs, ws, { report });
  const ms = performance.now() - t0;
  assert.deepEqual(runs.map((r) => r.anchor), [job], 'the one job inside, once, at its own path');
  assert.ok(ms < 5000, `${ms} ms (a followed link to / scans the machine)`);
  const links = report.links.map((l) => [path.posix.relative(ws, l.path), l.why, l.target]);
  assert.deepEqual(links, [
    ['elsewhere', 'outside', fs.realpathSync(outside)],
    ['everything', 'outside', '/'],
    ['jobs/latest', 'inside', fs.realpathSync(job)],
    ['jobs/loop', 'inside', fs.realpathSync(ws)],
    [`nemo/${path.basename(report.links[4].path)}`, 'outside', report.links[4].target],
  ]);
  assert.match(report.links[4].target, /_run_summary\.json$/, 'the run file linking out is named with its target');
  assert.equal(report.linksResolved, true);
  assert.equal(report.capped, undefined);
  assert.equal(describeLink(ws, report.links[1]), `everything is a link to /, outside ${ws}: not followed`);
  assert.equal(describeLink(ws, report.links[2]), `jobs/latest is a link to ${fs.realpathSync(job)}: read there, once`);
});

test('discovery through a link-free file system: depth and the folder cap still bound it, and it says links were not resolved', { timeout: 30_000 }, async () => {
  const { ws } = await linkedWorkspace();
  // The same Node file system without realpath (as a remote file system that cannot resolve links).
  const noReal: FsPort = Object.create(nfs, { realpath: { value: undefined } }) as FsPort;
  const report = emptyDiscoveryReport();
  const runs = await discoverRuns(noReal, ws, { report, maxDirs: 300, maxDepth: 6 });
  assert.equal(report.linksResolved, false);
  assert.ok(runs.length >= 1);
  assert.ok(report.capped, 'the loop and / fill the cap, which is reported');
  assert.equal(report.capped.maxDirs, 300);
  assert.ok(report.capped.notRead > 0);
  assert.match(describeCap(report.capped), /^stopped after 300 folders: [\d,]+ folders? found \(and what is below them\) not read$/);
});

test('inspect: the runs inside only, each link not followed said on stderr; the folder cap counts what it did not read', { timeout: 60_000 }, async () => {
  const { ws, job, outsideJob } = await linkedWorkspace();
  const r = runCli(['inspect', '--json', ws], 30_000);
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as { runs: { anchor: string }[] };
  assert.deepEqual(doc.runs.map((x) => x.anchor), [job]);
  assert.ok(!r.out.includes(outsideJob));
  assert.match(r.err, /everything is a link to \/, outside .*: not followed/);
  assert.match(r.err, /jobs\/latest is a link to .*: read there, once/);
  assert.match(r.err, /nemo\/.*_run_summary\.json is a link to .*: not followed/);
  // A workspace with more folders than the cap: said, with how many were not read.
  const wide = tempDir('wide-');
  for (let i = 0; i < 40; i++) fs.mkdirSync(`${wide}/d${i}/e`, { recursive: true });
  const rep = emptyDiscoveryReport();
  assert.deepEqual(await discoverRuns(nfs, wide, { report: rep, maxDirs: 10 }), []);
  assert.ok(rep.capped && rep.capped.notRead >= 30, JSON.stringify(rep.capped));
  const all = emptyDiscoveryReport();
  await discoverRuns(nfs, wide, { report: all });
  assert.equal(all.capped, undefined, 'under the cap: nothing said');
});

test('the Runs tree says what discovery did not follow: one info line per link after the runs, the cap with its setting', { timeout: 30_000 }, async () => {
  const { ws, job } = await linkedWorkspace();
  const store = new RunStore({ fs: nfs, folders: () => [{ path: ws, name: 'ws' }], filters: () => ({ include: [], exclude: [], maxDirs: 2 }) });
  await store.ensureLoaded();
  const kids = rootChildren(store.byFolder(), defaultViewState(), (r) => makeRunNode(r), store.discoveryNotes());
  const notes = kids.filter((k): k is MessageNode => k.kind === 'message').map((k) => k.text);
  assert.ok(notes.some((t) => t === `everything is a link to /, outside ${ws}: not followed`), notes.join('\n'));
  assert.ok(notes.some((t) => /^stopped after 2 folders: [\d,]+ folders? found \(and what is below them\) not read \(harborRuns\.maxFolders raises the cap\)$/.test(t)), notes.join('\n'));
  assert.equal(describe(kids[kids.length - 1]).icon && (describe(kids[kids.length - 1]).icon as { id: string }).id, 'info');
  const all = new RunStore({ fs: nfs, folders: () => [{ path: ws, name: 'ws' }], filters: () => ({ include: [], exclude: [] }) });
  await all.ensureLoaded();
  assert.deepEqual(all.runs().map((r) => r.root), [job]);
  assert.equal(all.discoveryNotes()[0].notes.length, 5, all.discoveryNotes()[0].notes.join('\n'));
  store.dispose();
  all.dispose();
});
