// The CLI's argv parsing (node:util parseArgs underneath): flags, repeatable values in both spellings, `--`, and
// usage errors with short messages.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { UsageError, parseArgs } from '../../../src/cli/args';

const spec = { flags: ['json'], values: ['include', 'out'] };

test('flags, values (repeated, --k v and --k=v) and positionals, with -- ending the options', () => {
  const a = parseArgs(['p', '--json', '--include', 'a/**', '--include=b/**', '--', '--not-an-option'], spec);
  assert.deepEqual(a.positionals, ['p', '--not-an-option']);
  assert.deepEqual([...a.flags], ['json']);
  assert.deepEqual(a.values.get('include'), ['a/**', 'b/**']);
  assert.equal(a.values.has('out'), false);
});

test('usage errors: unknown option, missing value, value on a flag', () => {
  const cases: [string[], RegExp][] = [
    [['--frobnicate'], /^unknown option --frobnicate$/],
    [['-x'], /^unknown option -x$/],
    [['--out'], /^--out needs a value$/],
    [['--json=yes'], /^--json takes no value$/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(() => parseArgs(argv, spec), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  }
});
