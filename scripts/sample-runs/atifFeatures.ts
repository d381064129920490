// ATIF trajectories that exercise every feature the trajectory viewer reads: continuations with copied context,
// subagents of each kind (by path, by embedded trajectory_id, a v1.6 session-only ref), v1.7 context management,
// logprobs and token ids, images / v1.8 audio, llm_call_count 0, missing timestamps, each schema version v1.0 … v1.8,
// hostile text (the XSS corpus), and 10k-step / ~100 MB trajectories for the benchmark. Every generator returns the
// files of one trajectory folder as { relative path: JSON value | bytes } plus the figures a test expects.
import { Prng, isoOffset } from './util';
import { terminusTrajectory } from './atif';
import { XSS_PAYLOADS } from './xssCorpus';

export type FolderFiles = Record<string, unknown>;

/** A 1×1 transparent PNG (what an image part points at). */
export const TINY_PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));

type Step = Record<string, unknown>;

function agentStep(id: number, t: number | null, message: unknown, o: { prompt?: number; completion?: number; cached?: number; cost?: number; calls?: Step[]; results?: Step[]; reasoning?: string; copied?: boolean; logprobs?: number[] } = {}): Step {
  const s: Step = { step_id: id };
  if (t !== null) s.timestamp = isoOffset(t);
  s.source = 'agent';
  s.model_name = 'model-x';
  s.message = message;
  if (o.reasoning) s.reasoning_content = o.reasoning;
  if (o.calls) s.tool_calls = o.calls;
  if (o.results) s.observation = { results: o.results };
  const m: Step = { prompt_tokens: o.prompt ?? 100, completion_tokens: o.completion ?? 10 };
  if (o.cached !== undefined) m.cached_tokens = o.cached;
  if (o.cost !== undefined) m.cost_usd = o.cost;
  if (o.logprobs) { m.completion_token_ids = o.logprobs.map((_, i) => 1000 + i); m.logprobs = o.logprobs; }
  s.metrics = m;
  if (o.copied) s.is_copied_context = true;
  return s;
}

const userStep = (id: number, t: number | null, message: unknown, copied = false): Step => {
  const s: Step = { step_id: id };
  if (t !== null) s.timestamp = isoOffset(t);
  s.source = 'user';
  s.message = message;
  if (copied) s.is_copied_context = true;
  return s;
};

const call = (id: string, cmd: string): Step => ({ tool_call_id: id, function_name: 'bash_command', arguments: { keystrokes: `${cmd}\n`, duration: 0.5 } });

/**
 * A trajectory continued in trajectory.cont-1.json (linear-history mode): the continuation starts with copies of the
 * first file's steps (is_copied_context, folded by the viewer) and a copied summary that repeats nothing.
 * Own totals: prompt 100+200+300+400 = 1000, completion 40, cost 0.04 — copied steps never counted.
 */
export function continuedTrajectory(): { files: FolderFiles; expect: { steps: number; folded: number; prompt: number; completion: number } } {
  const t0 = 1_780_000_000;
  const main = {
    schema_version: 'ATIF-v1.7', session_id: 's-cont', trajectory_id: 'main',
    agent: { name: 'terminus-2', version: '2.0.0', model_name: 'provider/model-x' },
    steps: [
      userStep(1, t0, 'Fix the failing build.'),
      agentStep(2, t0 + 5, 'Look around.', { prompt: 100, completion: 10, cost: 0.01, calls: [call('call_0_1', 'ls')], results: [{ source_call_id: 'call_0_1', content: 'main.c Makefile' }] }),
      agentStep(3, t0 + 9, 'Build it.', { prompt: 200, completion: 10, cost: 0.01, calls: [call('call_1_1', 'make')], results: [{ source_call_id: 'call_1_1', content: 'error: x undeclared' }] }),
    ],
    final_metrics: { total_prompt_tokens: 300, total_completion_tokens: 20, total_cost_usd: 0.02, total_steps: 3 },
    continued_trajectory_ref: 'trajectory.cont-1.json',
  };
  const cont = {
    schema_version: 'ATIF-v1.7', session_id: 's-cont', trajectory_id: 'main-cont-1',
    agent: main.agent,
    steps: [
      userStep(1, t0, 'Fix the failing build.', true),
      agentStep(2, t0 + 5, 'Look around.', { prompt: 100, completion: 10, cost: 0.01, copied: true }),
      userStep(3, null, 'Summary of the work so far: the build fails on an undeclared x.', true),
      agentStep(4, t0 + 60, 'Declare x.', { prompt: 300, completion: 10, cost: 0.01, calls: [call('call_2_1', "sed -i 's/x;/int x;/' main.c")], results: [{ source_call_id: 'call_2_1', content: '' }] }),
      agentStep(5, t0 + 70, 'Done.', { prompt: 400, completion: 10, cost: 0.01 }),
    ],
    final_metrics: { total_prompt_tokens: 700, total_completion_tokens: 20, total_cost_usd: 0.02, total_steps: 2 },
  };
  return { files: { 'trajectory.json': main, 'trajectory.cont-1.json': cont }, expect: { steps: 3 + 3, folded: 2, prompt: 1000, completion: 40 } };
}

function subTrajectory(id: string, prompt: number): Record<string, unknown> {
  return {
    schema_version: 'ATIF-v1.7', session_id: 's-sub', trajectory_id: id,
    agent: { name: 'summarizer', version: '1.0' },
    steps: [userStep(1, null, `Summarize (${id}).`), agentStep(2, null, `Summary by ${id}.`, { prompt, completion: 5, cost: 0.001 })],
    final_metrics: { total_prompt_tokens: prompt, total_completion_tokens: 5, total_cost_usd: 0.001, total_steps: 2 },
  };
}

/**
 * Subagents of every kind from one system step: a file (trajectory_path), an embedded one (trajectory_id), a v1.6
 * ref holding only session_id, plus an embedded trajectory no step names. Own prompt 1000; subagents add 50 + 70 + 90.
 */
export function subagentTrajectory(): { files: FolderFiles; expect: { ownPrompt: number; allPrompt: number; subagents: number } } {
  const main = {
    schema_version: 'ATIF-v1.7', session_id: 's-main', trajectory_id: 'root',
    agent: { name: 'terminus-2', version: '2.0.0', model_name: 'provider/model-x' },
    steps: [
      userStep(1, null, 'Do the task.'),
      agentStep(2, null, 'Working.', { prompt: 1000, completion: 10, cost: 0.01 }),
      { step_id: 3, source: 'system', message: 'Context summarized by subagents.', observation: { results: [
        { content: 'summary ready', subagent_trajectory_ref: [{ trajectory_path: 'trajectory.summarization-1-summary.json', session_id: 's-sub' }] },
        { subagent_trajectory_ref: [{ trajectory_id: 'embedded-1' }] },
        { subagent_trajectory_ref: [{ session_id: 'legacy-session' }] },
      ] } },
    ],
    final_metrics: { total_prompt_tokens: 1210, total_completion_tokens: 25, total_cost_usd: 0.013, total_steps: 3 },
    subagent_trajectories: [subTrajectory('embedded-1', 70), subTrajectory('embedded-unreferenced', 90)],
  };
  return { files: { 'trajectory.json': main, 'trajectory.summarization-1-summary.json': subTrajectory('file-sub', 50) }, expect: { ownPrompt: 1000, allPrompt: 1210, subagents: 4 } };
}

/** v1.7 §VII context management (a compaction that replaces the context), logprobs, an image, audio, llm_call_count 0. */
export function featureTrajectory(): FolderFiles {
  const t0 = 1_780_000_000;
  const doc = {
    schema_version: 'ATIF-v1.8', session_id: 's-feat', trajectory_id: 'features',
    agent: { name: 'multi', version: '0.1', model_name: 'provider/model-x', tool_definitions: [{ type: 'function', function: { name: 'bash_command', parameters: {} } }] },
    steps: [
      userStep(1, t0, [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', source: { media_type: 'image/png', path: 'images/shot.png' } }, { type: 'audio', source: { media_type: 'audio/wav', path: 'audio/note.wav', duration_sec: 1.5 } }, { type: 'video', source: { path: 'v.mp4' } }]),
      agentStep(2, t0 + 3, 'A tiny image.', { prompt: 500, completion: 4, logprobs: [-0.01, -0.3, -2.5, -0.0001], reasoning: 'It is one pixel.' }),
      { step_id: 3, timestamp: isoOffset(t0 + 4), source: 'system', message: 'Compacted the context.', observation: { results: [{ content: 'Summary: the user asked about a one-pixel image.' }] }, extra: { context_management: { type: 'compaction', boundary: 'replace' } } },
      { step_id: 4, source: 'agent', message: 'Answered from cache.', llm_call_count: 0 },
      agentStep(5, t0 + 10, 'Bye.', { prompt: 80, completion: 2, logprobs: [-0.5, -0.7] }),
    ],
  };
  return { 'trajectory.json': doc, 'images/shot.png': TINY_PNG, 'audio/note.wav': new Uint8Array(44) };
}

/** A silent mono 8 kHz 8-bit WAV of `ms` milliseconds (a real file an <audio> element can load). */
export function silentWav(ms = 200): Uint8Array {
  const n = Math.round(8 * ms);
  const b = new DataView(new ArrayBuffer(44 + n));
  const tag = (at: number, s: string) => { for (let i = 0; i < 4; i++) b.setUint8(at + i, s.charCodeAt(i)); };
  tag(0, 'RIFF'); b.setUint32(4, 36 + n, true); tag(8, 'WAVE'); tag(12, 'fmt '); b.setUint32(16, 16, true);
  b.setUint16(20, 1, true); b.setUint16(22, 1, true); b.setUint32(24, 8000, true); b.setUint32(28, 8000, true);
  b.setUint16(32, 1, true); b.setUint16(34, 8, true); tag(36, 'data'); b.setUint32(40, n, true);
  for (let i = 0; i < n; i++) b.setUint8(44 + i, 128);
  return new Uint8Array(b.buffer);
}

/**
 * v1.8 media: an image and an audio part that load (relative to the trajectory), and parts that must not: a path
 * leaving the folder (../), an absolute path outside, a missing file, and `images/link.png`, which the caller makes a
 * symbolic link to a file outside the folder (`outside.png` one level up is written for both to point at).
 */
export function mediaTrajectory(): FolderFiles {
  const part = (type: 'image' | 'audio', p: string, extra: Record<string, unknown> = {}) => ({ type, source: { media_type: type === 'image' ? 'image/png' : 'audio/wav', path: p, ...extra } });
  const doc = {
    schema_version: 'ATIF-v1.8', session_id: 's-media', trajectory_id: 'media', agent: { name: 'listener', version: '1.0', model_name: 'provider/audio-model' },
    steps: [
      userStep(1, 1_780_000_000, [{ type: 'text', text: 'Transcribe the note and describe the picture.' }, part('image', 'images/shot.png'), part('audio', 'audio/note.wav', { duration_sec: 0.2 })]),
      userStep(2, 1_780_000_001, [{ type: 'text', text: 'These must not load.' }, part('image', '../outside.png'), part('image', 'images/link.png'), part('audio', '/etc/passwd'), part('audio', 'audio/missing.wav')]),
      agentStep(3, 1_780_000_004, 'A silent note and a one-pixel image.', { prompt: 300, completion: 9, reasoning: 'The note is 0.2 s of silence; the image is one pixel.' }),
    ],
  };
  return { 'agent/trajectory.json': doc, 'agent/images/shot.png': TINY_PNG, 'agent/audio/note.wav': silentWav(), 'outside.png': TINY_PNG };
}

/** The smallest valid trajectory of each version, using only what that version has. */
export function versionTrajectory(version: string): Record<string, unknown> {
  const minor = Number(version.replace('ATIF-v1.', ''));
  const message = minor >= 6 ? [{ type: 'text', text: `Hello from ${version}.` }] : `Hello from ${version}.`;
  const metrics: Step = { prompt_tokens: 10, completion_tokens: 2 };
  if (minor >= 3) metrics.completion_token_ids = [1, 2];
  if (minor >= 4) metrics.prompt_token_ids = Array.from({ length: 10 }, (_, i) => i);
  const doc: Record<string, unknown> = { schema_version: version, session_id: `s-${version}`, agent: { name: 'a', version: '1' }, steps: [userStep(1, null, message), { step_id: 2, source: 'agent', message: 'ok', metrics }] };
  if (minor >= 1) doc.extra = { generator: 'sample-runs' };
  if (minor >= 7) doc.trajectory_id = `t-${version}`;
  return doc;
}

/** Every place an agent or tool writes text gets payloads from the corpus (ids, image paths included). */
export function xssTrajectory(): FolderFiles {
  const steps: Step[] = [userStep(1, null, XSS_PAYLOADS.join('\n'))];
  XSS_PAYLOADS.forEach((p, i) => {
    const id = `call_${i}_${p}`;
    steps.push({
      step_id: steps.length + 1, source: 'agent', model_name: p, message: [{ type: 'text', text: p }, { type: 'image', source: { media_type: 'image/png', path: p } }],
      reasoning_content: p, tool_calls: [{ tool_call_id: id, function_name: p, arguments: { [p]: p } }],
      observation: { results: [{ source_call_id: id, content: p, extra: { [p]: p } }, { content: p, subagent_trajectory_ref: [{ trajectory_id: p }] }] },
      metrics: { prompt_tokens: 1, completion_tokens: 1, extra: { note: p } }, extra: { [p]: p },
    });
  });
  return { 'trajectory.json': { schema_version: 'ATIF-v1.7', session_id: XSS_PAYLOADS[0], trajectory_id: XSS_PAYLOADS[1], notes: XSS_PAYLOADS[2], agent: { name: XSS_PAYLOADS[3], version: XSS_PAYLOADS[4], model_name: XSS_PAYLOADS[5] }, steps } };
}

/** A long Terminus-2 trajectory for the benchmark: `steps` agent turns carrying ~`bytes` of observations in all. */
export function bigTrajectory(steps: number, bytes: number, seed = 7): Record<string, unknown> {
  const rng = new Prng(seed);
  const { trajectory } = terminusTrajectory({ sessionId: 'bench', trajectoryId: 'bench', modelName: 'provider/model-x', instruction: 'Benchmark task.', turns: steps - 3, complete: true, startSec: 1_780_000_000, padBytes: bytes, fullPrompt: true, rng, withCost: true });
  return trajectory;
}

