// A tiny argv parser shared by the sub-commands: positionals, `--flag`, `--key value` / `--key=value`, repeatable keys.
export interface ParsedArgs {
  positionals: string[];
  flags: Set<string>;
  values: Map<string, string[]>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], spec: { flags?: string[]; values?: string[] }): ParsedArgs {
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  const positionals: string[] = [];
  const known = new Set([...(spec.flags ?? []), ...(spec.values ?? [])]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (!a.startsWith('--')) { positionals.push(a); continue; }
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!known.has(key)) throw new UsageError(`unknown option --${key}`);
    if (spec.flags?.includes(key)) {
      if (eq > 0) throw new UsageError(`--${key} takes no value`);
      flags.add(key);
      continue;
    }
    const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined) throw new UsageError(`--${key} needs a value`);
    values.set(key, [...(values.get(key) ?? []), v]);
  }
  return { positionals, flags, values };
}
