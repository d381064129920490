// Placeholder until the 'signatures' command lands.
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('harbor-runs signatures: not built yet\n');
  return 2;
}
