// Hostile mutations of a generated run on disk, for the hostile-runs tests: what a run folder written by someone else
// can hold that an honest writer never produces. Each replaces or rewrites one file (or adds one entry) in place:
// a FIFO or a link to a device where a file should be, a huge sparse file, JSON nested 100,000 deep, paths that leave
// the run, links that loop or leave the folder, ids carrying terminal escapes, bidi overrides or invalid UTF-8.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

export const HOSTILE = ['fifo', 'device', 'huge', 'deep', 'link-loop', 'link-out', 'link-dup'] as const;
export type HostileKind = (typeof HOSTILE)[number];

function replaceWith(file: string, make: () => void): void {
  fs.rmSync(file, { force: true, recursive: true });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  make();
}

/** `file` becomes a FIFO nobody writes to: reading it blindly blocks forever. */
export function makeFifo(file: string): void {
  replaceWith(file, () => execFileSync('mkfifo', [file]));
}

/** `file` becomes a link to a device (/dev/zero by default: reading it blindly never ends). */
export function makeDeviceLink(file: string, device = '/dev/zero'): void {
  replaceWith(file, () => fs.symlinkSync(device, file));
}

/** `file` becomes a sparse file of `bytes` (no disk used): a blind read allocates all of it. */
export function makeHuge(file: string, bytes: number): void {
  replaceWith(file, () => { fs.writeFileSync(file, ''); fs.truncateSync(file, bytes); });
}

/** JSON text nested `depth` arrays deep (`[[[…]]]`), as a document or one JSONL line. */
export function deepJson(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** A JSON object whose `key` holds `depth` nested objects. */
export function deepObject(depth: number, key = 'x'): string {
  return `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Adds a symlink `name` in `dir` pointing at `target` (relative or absolute). */
export function addLink(dir: string, name: string, target: string): string {
  const p = path.join(dir, name);
  fs.rmSync(p, { force: true, recursive: true });
  fs.symlinkSync(target, p);
  return p;
}

/** Rewrites one value of a JSON file (the path of keys must exist up to its parent). */
export function setJsonValue(file: string, keys: (string | number)[], value: unknown): void {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string | number, unknown>;
  let cur = doc;
  for (const k of keys.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[keys[keys.length - 1]] = value;
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
}

/** Ids and messages that try to take over a terminal or mislead a reader. */
export const HOSTILE_TEXT = {
  /** Clears the screen, moves the cursor home and writes a forged line. */
  clearScreen: 'task\u001b[2J\u001b[Hforged: all 100 tasks passed',
  /** An OSC 8 hyperlink and a title change. */
  osc: 'task\u001b]8;;https://example.invalid\u0007link\u001b]8;;\u0007\u001b]0;owned\u0007',
  /** Right-to-left override: displays reversed text. */
  bidi: 'task-\u202egnp.exe\u202c',
  /** A carriage return and a newline forging a second line. */
  forgedLine: 'task\r\nok   all passed',
  /** A C1 control (CSI as one byte). */
  c1: 'task\u009b31mred',
} as const;
