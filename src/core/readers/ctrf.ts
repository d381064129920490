// ctrf.json (Common Test Report Format, `pytest --ctrf`): the failed tests it lists, for an attempt's evidence.
import type { FsPort } from '../fs/port';
import { parseJsonBounded } from '../jsonDepth';

export interface FailedTest {
  name: string;
  message?: string;
}

const FAILED = new Set(['failed', 'error', 'errored', 'broken']);

/** The failed tests of a parsed ctrf document; [] when it has none or is not a ctrf report. */
export function ctrfFailedTests(doc: unknown, max = 50): FailedTest[] {
  const results = (doc as { results?: { tests?: unknown } } | null)?.results;
  const tests = results && Array.isArray(results.tests) ? results.tests : [];
  const out: FailedTest[] = [];
  for (const t of tests) {
    if (!t || typeof t !== 'object') continue;
    const { name, status, message, trace } = t as Record<string, unknown>;
    if (typeof status !== 'string' || !FAILED.has(status.toLowerCase())) continue;
    const msg = typeof message === 'string' ? message : typeof trace === 'string' ? trace : undefined;
    out.push({ name: typeof name === 'string' ? name : '(unnamed test)', ...(msg ? { message: msg.slice(0, 2000) } : {}) });
    if (out.length >= max) break;
  }
  return out;
}

/** Reads a ctrf.json; undefined when it cannot be read or parsed (the file is still shown as evidence). */
export async function readCtrfFailedTests(fs: FsPort, path: string): Promise<FailedTest[] | undefined> {
  try {
    return ctrfFailedTests(parseJsonBounded(new TextDecoder('utf-8').decode(await fs.readFile(path))));
  } catch {
    return undefined;
  }
}
