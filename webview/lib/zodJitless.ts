// Imported FIRST by every webview entry, before any zod schema is built: zod compiles object parsers with
// `new Function` unless `jitless` is set when the schema is created, and under the webview's CSP (no 'unsafe-eval')
// even its probe is reported as a securitypolicyviolation. Not a top-level webview/*.ts file, so not a bundle entry.
// The webviews use zod's small build (zod/mini, as the protocols do), which has no messages until a locale is set:
// English, as the extension host's full build says them.
import * as z from 'zod/mini';

z.config({ jitless: true, ...z.locales.en() });
