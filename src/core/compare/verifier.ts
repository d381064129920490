// What the verifier said about one attempt, as one text to put beside another attempt's in a diff editor: outcome,
// reward(s), exception, the failed tests of ctrf.json and test-stdout.txt. Rewards in the one reward format
// (formatReward); a missing file is said, not left blank.
import { formatReward } from '../format';
import type { Attempt, Evidence } from '../model';

function walk(ev: readonly Evidence[], out: Evidence[] = []): Evidence[] {
  for (const e of ev) { out.push(e); if (e.children) walk(e.children, out); }
  return out;
}

/** The attempt's test-stdout.txt and ctrf.json evidence (first of each, steps included), present or not. */
export function verifierEvidence(a: Attempt): { stdout: Evidence | null; ctrf: Evidence | null } {
  const all = walk(a.evidence);
  return { stdout: all.find((e) => e.kind === 'test-stdout' && !e.isDir) ?? null, ctrf: all.find((e) => e.kind === 'ctrf') ?? null };
}

/** The verifier report of an attempt; `stdout` is test-stdout.txt's text (null: not there or not read, `stdoutNote` says why). */
export function verifierReport(a: Attempt, stdout: string | null, stdoutNote?: string): string {
  const lines: string[] = [];
  lines.push(`outcome: ${a.outcome}`);
  lines.push(`reward: ${a.reward === null ? '— (not measured)' : formatReward(a.reward)}`);
  if (a.rewards && Object.keys(a.rewards).length > 1) {
    for (const k of Object.keys(a.rewards).sort()) lines.push(`  ${k}: ${formatReward(a.rewards[k])}`);
  }
  for (const s of a.steps ?? []) lines.push(`step ${s.name}: reward ${formatReward(s.reward)}${s.exception ? `, ${s.exception.type}` : ''}`);
  if (a.exception) lines.push(`exception: ${a.exception.type}: ${a.exception.message.split('\n')[0]}`);
  const { stdout: out, ctrf } = verifierEvidence(a);
  if (!ctrf) lines.push('failed tests: no ctrf.json');
  else if (!ctrf.present) lines.push('failed tests: ctrf.json missing');
  else {
    const failed = ctrf.failedTests ?? [];
    lines.push(`failed tests (${failed.length}):`);
    for (const t of [...failed].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
      lines.push(`  - ${t.name}${t.message ? `: ${t.message.split('\n')[0]}` : ''}`);
    }
  }
  lines.push('');
  lines.push(`--- ${out?.label ?? 'test-stdout.txt'} ---`);
  if (stdout !== null) lines.push(stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout);
  else lines.push(`(${stdoutNote ?? (out ? (out.present ? 'not read' : 'missing') : 'none')})`);
  return `${lines.join('\n')}\n`;
}
