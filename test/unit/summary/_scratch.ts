import * as fs from 'node:fs';
import { KeyPicker } from '../../../src/core/summary/scan';
const META = new KeyPicker(['metadata']);
const RESULT = new KeyPicker([
  '_ng_task_id', '_ng_task_index', '_ng_rollout_index', 'reward', 'mask_sample', 'failure_kind', 'failure_reason',
  'verifier_logs_dir', 'verifier_mode', 'task_source', 'responses_create_params',
  '_ng_failure_class', '_ng_failure_stage', '_ng_failure_terminal', '_ng_failure_message',
], { responses_create_params: META });
const p = process.argv[2];
if (p) {
  const buf = fs.readFileSync(p);
  const lines: Uint8Array[] = [];
  let s = 0;
  for (;;) { const nl = buf.indexOf(10, s); if (nl < 0) break; lines.push(buf.subarray(s, nl)); s = nl + 1; }
  for (let k = 0; k < 3; k++) {
    let t = process.hrtime.bigint();
    for (const l of lines) JSON.parse(Buffer.from(l.buffer, l.byteOffset, l.length).toString('utf8'));
    const a = Number(process.hrtime.bigint() - t) / 1e6;
    t = process.hrtime.bigint();
    for (const l of lines) RESULT.pick(l);
    const b = Number(process.hrtime.bigint() - t) / 1e6;
    console.log(`JSON.parse ${a.toFixed(0)} ms, pick ${b.toFixed(0)} ms, ${lines.length} lines`);
  }
}
