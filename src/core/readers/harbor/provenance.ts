// Reward provenance of a Harbor trial's verifier folder (no viewer checks this): reward.json and reward.txt both
// there and disagreeing (the verifier reads reward.json first, so an agent writing its own pre-empts the verifier's
// reward.txt), the reward file the verifier reads saying another reward than result.json's verifier_result.rewards
// (one of them changed after the verifier ran), a reward file last modified before the verifier started (so the
// verifier did not write it), and a reward-details.json with per-criterion scores. `provenanceFindings` is the pure rule set; `provenanceFromFiles`
// takes the facts from what a batched read gathered (trialFiles.ts).
import type { RewardProvenance } from '../../model';
import { joinPath } from './paths';

/** File times and the verifier's start come from different clocks (sandbox host, result writer): this much is tolerated. */
export const MTIME_SKEW_MS = 2000;

/** reward.json's value when it was not read (its text not gathered): no finding compares it. */
export const NOT_READ: unique symbol = Symbol('not read');

export interface ProvenanceFacts {
  /** reward.json: its path and its parsed content (undefined when it does not parse, NOT_READ when it was not read). */
  rewardJson?: { path: string; value: unknown; mtimeMs?: number };
  /** reward.txt: its path and text (undefined when it was not read). */
  rewardTxt?: { path: string; text?: string; mtimeMs?: number };
  /** result.json's verifier.started_at (ISO), when recorded. */
  verifierStartedAt?: string | null;
  detailsPath?: string | null;
  /** result.json's verifier_result.rewards (of the step, for a step's verifier folder), when recorded. */
  recorded?: Readonly<Record<string, number>> | null;
}

/** reward.json's primary reward, Harbor's rule: the "reward" key, else the only key; null otherwise. */
export function primaryOfRewardJson(v: unknown): number | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const pick = 'reward' in o ? o.reward : keys.length === 1 ? o[keys[0]] : undefined;
  return typeof pick === 'number' && Number.isFinite(pick) ? pick : null;
}

/** reward.txt's value as the verifier reads it (one float); null when it is not one. */
export function valueOfRewardTxt(text: string): number | null {
  const t = text.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

function fmt(n: number | null): string {
  return n === null ? 'no number' : String(n);
}

function rewardsText(r: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(r);
  return keys.length === 1 && keys[0] === 'reward' ? String(r.reward) : JSON.stringify(r);
}

/**
 * The reward file the verifier reads (reward.json when there, else reward.txt: Harbor's rewards are reward.json's
 * object, or {"reward": reward.txt's number}) against result.json's verifier_result.rewards: a disagreement means one
 * of them was changed after the verifier ran (or copied from elsewhere). Null when they agree or either is not known.
 */
function againstResult(f: ProvenanceFacts): RewardProvenance | null {
  const recorded = f.recorded;
  if (!recorded || typeof recorded !== 'object' || Object.keys(recorded).length === 0) return null;
  let file: { path: string; name: string; rewards: Record<string, unknown> | null; said: string };
  if (f.rewardJson && f.rewardJson.value !== NOT_READ) {
    const v = f.rewardJson.value;
    const rewards = v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : null;
    file = { path: f.rewardJson.path, name: 'reward.json', rewards, said: rewards ? rewardsText(rewards) : 'no rewards object' };
  } else if (f.rewardTxt && f.rewardTxt.text !== undefined && !f.rewardJson) {
    const t = valueOfRewardTxt(f.rewardTxt.text);
    file = { path: f.rewardTxt.path, name: 'reward.txt', rewards: t === null ? null : { reward: t }, said: fmt(t) };
  } else {
    return null;
  }
  const keys = new Set([...Object.keys(recorded), ...Object.keys(file.rewards ?? {})]);
  const same = !!file.rewards && [...keys].every((k) => {
    const a = recorded[k];
    const b = file.rewards![k];
    return typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 1e-9;
  });
  if (same) return null;
  return {
    code: 'reward-file-vs-result', severity: 'warning', file: file.path,
    message: `${file.name} says ${file.said} but result.json's verifier_result.rewards says ${rewardsText(recorded)}: the reward on record is not the verifier's file's (one of them was changed after the verifier ran, or copied from another trial); the tree and pass@k use result.json's`,
  };
}

export function provenanceFindings(f: ProvenanceFacts): RewardProvenance[] {
  const out: RewardProvenance[] = [];
  if (f.rewardJson && f.rewardTxt) {
    const j = primaryOfRewardJson(f.rewardJson.value);
    const t = valueOfRewardTxt(f.rewardTxt.text ?? '');
    if (j === null || t === null || Math.abs(j - t) > 1e-9) {
      out.push({
        code: 'reward-files-disagree', severity: 'warning', file: f.rewardJson.path,
        message: `reward.json says ${fmt(j)} and reward.txt says ${fmt(t)}: the verifier takes reward.json when both exist, so the reward is reward.json's (an agent that writes its own reward.json pre-empts the verifier)`,
      });
    }
  }
  const vsResult = againstResult(f);
  if (vsResult) out.push(vsResult);
  const start = f.verifierStartedAt ? Date.parse(f.verifierStartedAt) : Number.NaN;
  if (Number.isFinite(start)) {
    for (const [name, file] of [['reward.json', f.rewardJson], ['reward.txt', f.rewardTxt]] as const) {
      if (!file || typeof file.mtimeMs !== 'number' || !(file.mtimeMs < start - MTIME_SKEW_MS)) continue;
      out.push({
        code: 'reward-before-verifier', severity: 'warning', file: file.path,
        message: `${name} was last written at ${new Date(file.mtimeMs).toISOString()}, before the verifier started (${new Date(start).toISOString()}): the verifier did not write it (the agent may have)`,
      });
    }
  }
  if (f.detailsPath) {
    out.push({ code: 'reward-details', severity: 'info', file: f.detailsPath, message: 'reward-details.json holds the per-criterion scores behind the reward' });
  }
  return out;
}

/**
 * The findings from files gathered beforehand (trialFiles.ts rewardFileRequests): `text` of a reward file read
 * (undefined when it was not read or is not a small file), `mtimeMs` of one stat'ed. The text is read only when both
 * reward files are there (to compare them), the times only when the verifier's start is known.
 */
export function provenanceFromFiles(
  verifierDir: string, has: (name: string) => boolean, verifierStartedAt: string | null | undefined,
  fileOf: (name: string) => { text?: string; mtimeMs?: number }, recorded?: Readonly<Record<string, number>> | null,
): RewardProvenance[] {
  const facts: ProvenanceFacts = { verifierStartedAt: verifierStartedAt ?? null, recorded: recorded ?? null };
  const both = has('reward.json') && has('reward.txt');
  if (both || verifierStartedAt || recorded) {
    for (const name of ['reward.json', 'reward.txt'] as const) {
      if (!has(name)) continue;
      const path = joinPath(verifierDir, name);
      const got = fileOf(name);
      if (both && got.text === undefined) continue;
      const mtimeMs = got.mtimeMs;
      if (name === 'reward.txt') facts.rewardTxt = { path, ...(got.text !== undefined ? { text: got.text } : {}), ...(mtimeMs !== undefined ? { mtimeMs } : {}) };
      else {
        let value: unknown = NOT_READ;
        if (got.text !== undefined) { try { value = JSON.parse(got.text); } catch { value = undefined; } }
        facts.rewardJson = { path, value, ...(mtimeMs !== undefined ? { mtimeMs } : {}) };
      }
    }
  }
  if (has('reward-details.json')) facts.detailsPath = joinPath(verifierDir, 'reward-details.json');
  return provenanceFindings(facts);
}
