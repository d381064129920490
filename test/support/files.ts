// Writing a test's run folders: one file, its folders made, JSON for anything that is not a string.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function write(file: string, data: unknown = ''): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
}
