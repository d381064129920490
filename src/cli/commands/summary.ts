// Placeholder until the 'summary' command lands.
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('harbor-runs summary: not built yet\n');
  return 2;
}
