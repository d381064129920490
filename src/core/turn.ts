// A turn of the event loop for long synchronous work (the extension host must never be blocked for long).
// setImmediate where there is one (Node: runs right after pending I/O, no 1 ms timer clamp), else a 0 ms timer.

const immediate = (globalThis as { setImmediate?: (cb: () => void) => unknown }).setImmediate;

export function yieldTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (immediate) immediate(resolve);
    else setTimeout(resolve, 0);
  });
}

/** Milliseconds of synchronous work allowed between turns. */
export const SLICE_MS = 12;

/** A clock for slicing work (performance.now where there is one). */
const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/**
 * Long synchronous work cut into slices: check `due` now and then (cheap), and `yield` when it is: the event loop
 * gets a turn and the next slice starts.
 */
export class TimeSlice {
  private start = now();
  private pending: Promise<void> | undefined;

  constructor(private readonly ms = SLICE_MS) {}

  /** Whether the work since the last turn took longer than a slice. */
  get due(): boolean {
    return now() - this.start > this.ms;
  }

  /**
   * A turn of the event loop, then a new slice. Callers that ask while a turn is pending share it: workers running
   * side by side on one TimeSlice get one slice per turn between them (each with its own turn, every one of them
   * started a fresh slice as it resumed: 32 workers held the event loop 32 slices at a time).
   */
  yield(): Promise<void> {
    this.pending ??= yieldTurn().then(() => {
      this.start = now();
      this.pending = undefined;
    });
    return this.pending;
  }
}
