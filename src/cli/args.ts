// The sub-commands' argv, parsed by Node's own `util.parseArgs` (strict: an unknown option or a missing value is a
// usage error, which the sub-command reports with its usage line and exit code 2). Value options may repeat.
import { parseArgs as parseNodeArgs } from 'node:util';

export interface ParsedArgs {
  positionals: string[];
  flags: Set<string>;
  values: Map<string, string[]>;
}

export class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'boolean' } | { type: 'string'; multiple: true }>;

/** parseArgs's error, said briefly: "unknown option --x", "--x needs a value", "--x takes no value". */
function usageMessage(e: Error & { code?: string }): string {
  const option = /'(--?[^' ]+)/.exec(e.message)?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': return `unknown option ${option ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(e.message) ? `${option} takes no value` : `${option} needs a value`;
    default: return e.message;
  }
}

export function parseArgs(argv: string[], spec: { flags?: string[]; values?: string[] }): ParsedArgs {
  const options: OptionSpec = {};
  for (const f of spec.flags ?? []) options[f] = { type: 'boolean' };
  for (const v of spec.values ?? []) options[v] = { type: 'string', multiple: true };
  let parsed;
  try {
    parsed = parseNodeArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS_')) throw new UsageError(usageMessage(err));
    throw e;
  }
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  for (const [key, value] of Object.entries(parsed.values)) {
    if (value === true) flags.add(key);
    else if (Array.isArray(value)) values.set(key, value as string[]);
  }
  return { positionals: parsed.positionals, flags, values };
}
