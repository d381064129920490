// Where the machine's CPU time went over a window, by process (Linux's /proc; elsewhere nothing is measured): a
// workbench benchmark takes a snapshot before and after what it times and prints the processes that used the most,
// named by what they are (the extension host, code-server's server, the browser's renderer, …), so a command slower
// in the workbench than on the CLI can be told apart from VS Code's own work beside it.
import * as fs from 'node:fs';
import * as os from 'node:os';

interface Proc { name: string; ticks: number }
export type CpuSnapshot = Map<number, Proc>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** What a process is, from its command line. */
function nameOf(pid: number, comm: string): string {
  let cmd = '';
  try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '); } catch { return comm; }
  if (/extensionHostProcess|--type=extensionHost/.test(cmd)) return 'extension host';
  if (/fileWatcher|watcherMain/.test(cmd)) return 'file watcher';
  if (/ptyHost/.test(cmd)) return 'pty host';
  if (/code-server|server-main|out\/node\/entry/.test(cmd)) return 'code-server';
  if (/--type=renderer/.test(cmd)) return 'browser renderer';
  if (/--type=gpu-process/.test(cmd)) return 'browser gpu';
  if (/--type=utility/.test(cmd)) return 'browser utility';
  if (/chrom/.test(cmd)) return 'browser';
  if (/summaryPeer|python/.test(cmd)) return 'python';
  if (/node/.test(comm) || /node/.test(cmd)) return `node ${cmd.split(' ').slice(1, 3).join(' ').slice(-60)}`;
  return comm;
}

/** Every process's CPU time so far (user + system, its exited threads included). */
export function cpuSnapshot(): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  if (os.platform() !== 'linux') return out;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const pid = Number(d);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      // Fields after the name: state is f[0]; utime and stime are fields 14 and 15 of the whole line.
      out.set(pid, { name: nameOf(pid, comm), ticks: Number(f[11]) + Number(f[12]) });
    } catch { /* gone meanwhile */ }
  }
  return out;
}

/** CPU milliseconds of this process's children that have exited and been waited for (a spawnSync'd CLI run). */
export function childrenCpuMs(): number {
  if (os.platform() !== 'linux') return 0;
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime are fields 16 and 17 of the whole line.
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
}

/** CPU milliseconds per kind of process between two snapshots, most first (processes started in between counted whole). */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): [string, number][] {
  const by = new Map<string, number>();
  for (const [pid, p] of after) {
    const ms = (p.ticks - (before.get(pid)?.ticks ?? 0)) * TICK_MS;
    if (ms > 0) by.set(p.name, (by.get(p.name) ?? 0) + ms);
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

/** "extension host 5,120 ms, browser renderer 900 ms, …" (the first `n`), with the total. */
export function describeCpu(rows: [string, number][], n = 6): string {
  const total = rows.reduce((s, [, ms]) => s + ms, 0);
  return `${total.toLocaleString('en-US')} ms in all: ${rows.slice(0, n).map(([name, ms]) => `${name} ${ms.toLocaleString('en-US')}`).join(', ')}`;
}
