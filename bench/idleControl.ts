// A control for the extension host's event-loop figures in the workbench benchmarks: a process that does nothing but
// keep a 10 ms timer, its event-loop delay measured like the host's (monitorEventLoopDelay). What it sees over the
// same window is the machine's scheduling (other processes on its cores), not anybody's code.
import { spawn } from 'node:child_process';

/** `reset` starts a window; `max` answers the longest delay the process saw in it (ms). */
export class IdleControl {
  private readonly child = spawn(process.execPath, ['-e', `
    const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); h.enable();
    require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
      if (l === 'reset') h.reset(); else process.stdout.write(Math.round(h.max / 1e6) + '\\n');
    });`], { stdio: ['pipe', 'pipe', 'inherit'] });
  reset(): void { this.child.stdin.write('reset\n'); }
  max(): Promise<number> {
    return new Promise((resolve) => { this.child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))); this.child.stdin.write('max\n'); });
  }
  stop(): void { this.child.kill(); }
}
