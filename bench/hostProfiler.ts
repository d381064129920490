// A CPU profile of the workbench's extension host for the workbench benchmarks (BENCH_PROFILE=<dir>): the host is
// found among code-server's processes (`--type=extensionHost`), its inspector opened with SIGUSR1 (Node's own signal
// for it), and the V8 profiler driven over the inspector's WebSocket. The profile (.cpuprofile, opens in Chrome's or
// VS Code's profiler) shows where the host's thread spent the time between start() and stop().
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tools from '../.ci/vscode/tools';

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void }

/**
 * The extension host's process id: the code-server process (a descendant of `rootPid`) run with --type=extensionHost.
 * code-server can start more than one (the first may end when the page connects again): the one that has used the
 * most CPU is the one running the extensions.
 */
export function extensionHostPid(rootPid: number): number | undefined {
  const kids = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^\d+ \(.*\) \S (\d+)/.exec(fs.readFileSync(`/proc/${d}/stat`, 'utf8'))?.[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch { /* gone */ }
  }
  const cpu = (pid: number): number => {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  let best: { pid: number; cpu: number } | undefined;
  const todo = [rootPid];
  while (todo.length) {
    const p = todo.pop()!;
    for (const c of kids.get(p) ?? []) {
      try {
        if (fs.readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('--type=extensionHost')) {
          const used = cpu(c);
          if (!best || used > best.cpu) best = { pid: c, cpu: used };
        }
      } catch { /* gone */ }
      todo.push(c);
    }
  }
  return best?.pid;
}

export class HostProfiler {
  private ws: WebSocket | undefined;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();

  private constructor(readonly pid: number) {}

  /** Opens the inspector of the extension host under `rootPid` (port 9229) and connects to it. */
  static async attach(rootPid: number): Promise<HostProfiler> {
    if (typeof WebSocket === 'undefined') throw new Error('BENCH_PROFILE needs a WebSocket client: Node 22 or later, or node --experimental-websocket');
    let pid = 0;
    let url: string | undefined;
    // A busy host can take seconds to open it; a host that ended meanwhile is replaced by the one running now.
    for (let i = 0; i < 300 && !url; i++) {
      if (i % 50 === 0) { pid = await waitPid(rootPid); process.kill(pid, 'SIGUSR1'); }
      try {
        const list = await (await fetch('http://127.0.0.1:9229/json/list')).json() as { webSocketDebuggerUrl: string }[];
        url = list[0]?.webSocketDebuggerUrl;
      } catch { /* not open yet */ }
      if (!url) await tools.sleep(100);
    }
    if (!url) throw new Error(`the extension host (pid ${pid}) opened no inspector on port 9229`);
    const p = new HostProfiler(pid);
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => { ws.onopen = () => resolve(); ws.onerror = () => reject(new Error(`cannot connect to ${url}`)); });
    ws.onmessage = (ev) => {
      const m = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const w = m.id !== undefined ? p.pending.get(m.id) : undefined;
      if (!w) return;
      p.pending.delete(m.id!);
      if (m.error) w.reject(new Error(m.error.message));
      else w.resolve(m.result);
    };
    p.ws = ws;
    await p.send('Profiler.enable');
    await p.send('Profiler.setSamplingInterval', { interval: 500 });
    return p;
  }

  private send(method: string, params: object = {}): Promise<unknown> {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws!.send(JSON.stringify({ id, method, params }));
    });
  }

  start(): Promise<unknown> {
    return this.send('Profiler.start');
  }

  /** Stops profiling and writes the profile to `file`; returns the path. */
  async stop(file: string): Promise<string> {
    const r = await this.send('Profiler.stop') as { profile: unknown };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(r.profile));
    return file;
  }

  close(): void {
    this.ws?.close();
  }
}

async function waitPid(rootPid: number): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const pid = extensionHostPid(rootPid);
    if (pid) return pid;
    await tools.sleep(100);
  }
  throw new Error('no extension host process found');
}

/** A CPU profile of the workbench page itself (the renderer's main thread), over the page's DevTools protocol. */
export class PageProfiler {
  private constructor(private readonly session: import('playwright-core').CDPSession) {}

  static async start(page: import('playwright-core').Page): Promise<PageProfiler> {
    const session = await page.context().newCDPSession(page);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 500 });
    await session.send('Profiler.start');
    return new PageProfiler(session);
  }

  async stop(file: string): Promise<string> {
    const r = await this.session.send('Profiler.stop');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(r.profile));
    await this.session.detach().catch(() => undefined);
    return file;
  }
}
