// How often a long command's progress notification changes (vscode-free: the Write Run Summary command reports
// through it). Every change of a notification's message and bar is a layout and repaint of the workbench's toasts,
// in a browser that shares the machine with the writer: in code-server, during Write Run Summary of a 1 GB run with
// a report at every 1 %, the browser's renderer used about a third of a core (at load 7); with at most one report
// every 500 ms, 0.14–0.19 of a core (quiet and loaded runs; not a clean A/B). So the percentage moves at most every
// `minMs` (and at 100 %), which is as often as a person reads it.

export class ProgressSteps {
  private last = 0;
  private lastAt = -Infinity;

  constructor(private readonly minMs = 500, private readonly now: () => number = Date.now) {}

  /** The whole percent to add to the bar now (0: say nothing yet), for `done` of `total`. */
  next(done: number, total: number): number {
    if (total <= 0) return 0;
    const pct = Math.min(100, Math.floor((done / total) * 100));
    if (pct <= this.last) return 0;
    const t = this.now();
    if (pct < 100 && t - this.lastAt < this.minMs) return 0;
    const step = pct - this.last;
    this.last = pct;
    this.lastAt = t;
    return step;
  }

  /** The percent reported so far. */
  get reported(): number {
    return this.last;
  }
}
