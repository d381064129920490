// Placeholder until the 'inspect' command lands.
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('harbor-runs inspect: not built yet\n');
  return 2;
}
