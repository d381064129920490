// Validating a message with its zod schema: the one way every host <-> webview protocol parses what it receives.
// vscode-free and DOM-free (bundled for the extension host and the browser alike). The schemas use zod's small
// functional build (zod/mini): the webview bundles carry it instead of the full one.
import type * as z from 'zod/mini';

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

export function parseWith<T>(schema: z.ZodMiniType<T>, data: unknown): Parsed<T> {
  const r = schema.safeParse(data);
  if (r.success) return { ok: true, message: r.data };
  const first = r.error.issues[0];
  return { ok: false, error: first ? `${first.path.join('.') || '(message)'}: ${first.message}` : 'invalid message' };
}
