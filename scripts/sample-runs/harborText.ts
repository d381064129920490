// The plain-text and small JSON pieces of a Harbor trial (docs/formats.md#harbor-job): exception infos with a
// Python-looking traceback, trial.log lines, the verifier's test-stdout.txt and ctrf.json, the artifacts manifest.

const SITE = '/usr/local/lib/python3.12/site-packages/harbor';

export interface ExceptionDef {
  type: string;
  message: string;
  module: string;
  frames: [string, number, string][];
}

export const EXCEPTIONS: Record<string, ExceptionDef> = {
  AgentTimeoutError: { type: 'AgentTimeoutError', message: 'Agent execution timed out after 900.0 seconds', module: 'harbor.trial.errors',
    frames: [['trial/trial.py', 512, '_run_agent'], ['trial/single_step.py', 88, 'run_agent_phase']] },
  NonZeroAgentExitCodeError: { type: 'NonZeroAgentExitCodeError', message: 'Agent command exited with code 1: claude --print ... (see agent/claude-code.txt)',
    module: 'harbor.agents.installed.base', frames: [['agents/installed/base.py', 301, 'run'], ['agents/installed/base.py', 355, '_raise_for_exit_code']] },
  ContextLengthExceededError: { type: 'ContextLengthExceededError', message: 'Context length exceeded: 201344 tokens > 200000 (summarization is disabled)',
    module: 'harbor.llms.base', frames: [['agents/terminus_2/terminus_2.py', 1502, '_query_llm'], ['llms/lite_llm.py', 214, 'call']] },
  EnvironmentStartTimeoutError: { type: 'EnvironmentStartTimeoutError', message: 'Environment start timed out after 600.0 seconds', module: 'harbor.trial.errors',
    frames: [['trial/trial.py', 1423, '_setup_agent_environment'], ['trial/trial.py', 1436, '_start_agent_environment']] },
  RewardFileNotFoundError: { type: 'RewardFileNotFoundError', message: 'No reward file found at /logs/verifier/reward.json or /logs/verifier/reward.txt',
    module: 'harbor.verifier.verifier', frames: [['trial/trial.py', 640, '_run_verifier'], ['verifier/verifier.py', 187, 'verify']] },
  CancelledError: { type: 'CancelledError', message: '', module: 'asyncio.exceptions',
    frames: [['trial/trial.py', 406, 'run'], ['trial/trial.py', 512, '_run_agent']] },
};

export function exceptionInfo(type: keyof typeof EXCEPTIONS | string, occurredAt: string): Record<string, unknown> {
  const d = EXCEPTIONS[type] ?? { type, message: `${type} raised`, module: 'harbor.trial.errors', frames: [['trial/trial.py', 406, 'run']] };
  const frames = d.frames.map(([f, line, fn]) => `  File "${SITE}/${f}", line ${line}, in ${fn}\n    await self.${fn}()\n`).join('');
  const traceback = `Traceback (most recent call last):\n${frames}${d.module}.${d.type}${d.message ? `: ${d.message}` : ''}\n`;
  return { exception_type: d.type, exception_message: d.message, exception_traceback: traceback, occurred_at: occurredAt };
}

export function testStdout(failed: string[], passed: string[]): string {
  const n = failed.length + passed.length;
  const lines = [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.13.7, pytest-8.4.1, pluggy-1.6.0',
    'rootdir: /tests',
    'plugins: json-ctrf-0.3.5',
    `collected ${n} items`,
    '',
    `../tests/test_outputs.py ${passed.map(() => '.').join('')}${failed.map(() => 'F').join('')}${' '.repeat(40)}[100%]`,
    '',
  ];
  if (failed.length) {
    lines.push('=================================== FAILURES ===================================');
    for (const f of failed) lines.push(`_____________________________ ${f} _____________________________`, 'E       AssertionError: output does not match the expected value', '');
  }
  lines.push('=========================== short test summary info ============================');
  for (const p of passed) lines.push(`PASSED ../tests/test_outputs.py::${p}`);
  for (const f of failed) lines.push(`FAILED ../tests/test_outputs.py::${f} - AssertionError`);
  lines.push(`============================== ${failed.length ? `${failed.length} failed, ` : ''}${passed.length} passed in 0.0${n}s ===============================`);
  return lines.join('\n') + '\n';
}

export function ctrf(failed: string[], passed: string[], startMs: number): Record<string, unknown> {
  const tests = [
    ...passed.map((name) => ({ name: `test_outputs.py::${name}`, status: 'passed', duration: 12 })),
    ...failed.map((name) => ({ name: `test_outputs.py::${name}`, status: 'failed', duration: 15,
      message: 'AssertionError: output does not match the expected value' })),
  ];
  return {
    results: {
      tool: { name: 'pytest', version: '8.4.1' },
      summary: { tests: tests.length, passed: passed.length, failed: failed.length, skipped: 0, pending: 0, other: 0,
        start: startMs, stop: startMs + 60 },
      tests,
    },
  };
}

export function manifest(status: 'ok' | 'empty'): Record<string, unknown>[] {
  return [{ source: '/logs/artifacts', destination: 'artifacts/logs/artifacts', type: 'directory', status, service: null }];
}

/** trial.log: "%(message)s" lines, no timestamps. */
export function trialLog(o: { trialDir: string; trialName: string; dumps: number; artifacts: boolean; failure?: string }): string {
  const lines: string[] = [];
  for (let i = 0; i < o.dumps; i++) lines.push(`Trajectory dumped to ${o.trialDir}/agent/trajectory.json`);
  if (o.failure) lines.push(`Trial ${o.trialName} failed: ${o.failure}`);
  if (o.artifacts) lines.push('Collecting main service artifacts');
  return lines.length ? lines.join('\n') + '\n' : '';
}
