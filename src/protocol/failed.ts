// The one host → webview message every panel's protocol shares: the host could not answer one of the page's messages
// (its handler threw: a file gone, a command refused). The page shows it (webview/lib/hostChannel.ts: showHostFailure)
// instead of waiting for an answer that is not coming; the host logged it and told the user.
import * as z from 'zod/mini';

export const HostFailedSchema = z.object({
  type: z.literal('failed'),
  /** The type of the page's message that failed ('openAttempt', 'search', …). */
  request: z.string().check(z.maxLength(100)),
  message: z.string().check(z.maxLength(4000)),
});
export type HostFailed = z.infer<typeof HostFailedSchema>;
