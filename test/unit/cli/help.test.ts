// `harbor-runs <command> --help` and `harbor-runs help`: every command prints its usage line on --help (exit 0, on
// stdout), and the general help lists each command with the same usage line — the options a command accepts, not an
// older subset (summary's --resumed, --taskset, --num-repeats…; signatures' --resumed).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { commands } from '../../../src/cli/commands';
import { main } from '../../../src/cli/main';

async function capture(run: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = process.stdout.write;
  const e = process.stderr.write;
  process.stdout.write = ((s: string | Uint8Array) => { out += String(s); return true; }) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => { err += String(s); return true; }) as typeof process.stderr.write;
  try {
    return { code: await run(), out, err };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}

test('every command: --help prints its usage line on stdout and exits 0', async () => {
  for (const [name, run] of Object.entries(commands)) {
    const r = await capture(() => run(['--help']));
    assert.equal(r.code, 0, `${name}: ${r.err}`);
    assert.match(r.out, new RegExp(`^usage: harbor-runs ${name} `), name);
    assert.equal(r.err, '', name);
  }
});

test('harbor-runs help lists every command with the usage line the command itself prints', async () => {
  const help = await capture(() => main(['help']));
  assert.equal(help.code, 0);
  for (const [name, run] of Object.entries(commands)) {
    // A usage error prints the command's usage line (whatever --help does).
    const r = await capture(() => run(['--no-such-option']));
    assert.equal(r.code, 2, name);
    const usage = /^usage: (.*)$/m.exec(r.err)?.[1];
    assert.ok(usage, `${name} prints a usage line: ${r.err}`);
    assert.ok(help.out.includes(`  ${usage}\n`), `harbor-runs help shows "${usage}"`);
  }
});
