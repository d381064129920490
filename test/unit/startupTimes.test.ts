// The startup figures the activation benchmark reads: each logged once, as `startup: <what> <ms> ms`, counted from
// startupBegin(); figures taken before the log exists are written when it is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startupBegin, startupLogTo, startupMark } from '../../src/vscode/startupTimes';

const figure = (line: string | undefined): number => Number(/^startup: [a-z ]+ ([\d.]+) ms/.exec(line ?? '')?.[1] ?? NaN);

test('startup figures: pending until the log is given, each once, in ms since the start', async () => {
  startupBegin();
  await new Promise((r) => setTimeout(r, 30));
  startupMark('activated');
  const lines: string[] = [];
  startupLogTo((m) => lines.push(m));
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^startup: activated [\d.]+ ms$/);
  assert.ok(figure(lines[0]) >= 25, `activated after ${lines[0]}`);
  startupMark('activated');
  startupMark('tree first level', ' (3 runs)');
  startupMark('tree first level');
  assert.equal(lines.length, 2);
  assert.match(lines[1], /^startup: tree first level [\d.]+ ms \(3 runs\)$/);
  assert.ok(figure(lines[1]) >= figure(lines[0]));
});

test('startup figures: a new activation starts the clock again, nothing is marked before it', () => {
  startupBegin();
  const lines: string[] = [];
  startupLogTo((m) => lines.push(m));
  startupMark('activated');
  assert.equal(lines.length, 1);
  assert.ok(figure(lines[0]) < 25, lines[0]);
});
