// Node's Buffer where there is one (the CLI, the extension host), plain Uint8Array elsewhere: the writer's hot paths
// use Buffer's native indexOf (memchr), toString and write, and allocate without zeroing.

export const NodeBuffer: typeof Buffer | undefined = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** The bytes as a Node Buffer when Node's Buffer exists (a view, no copy). Callers scanning many lines of one chunk convert once. */
export const asBuffer = (b: Uint8Array): Uint8Array =>
  (!NodeBuffer || NodeBuffer.isBuffer(b) ? b : NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength));

/** `n` bytes, not zeroed: a Node Buffer of its own (not from the shared pool) when there is one, else a Uint8Array. */
export function allocateBytes(n: number): Uint8Array {
  return NodeBuffer ? NodeBuffer.allocUnsafeSlow(n) : new Uint8Array(n);
}
