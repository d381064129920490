// Imported FIRST by every webview entry, before any zod schema is built: zod compiles object parsers with
// `new Function` unless `jitless` is set when the schema is created, and under the webview's CSP (no 'unsafe-eval')
// even its probe is reported as a securitypolicyviolation. Not a top-level webview/*.ts file, so not a bundle entry.
import { z } from 'zod';

z.config({ jitless: true });
