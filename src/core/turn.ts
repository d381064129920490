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
export const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();
