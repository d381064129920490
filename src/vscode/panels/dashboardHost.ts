// The host side of the run dashboard inside the Run Overview panel: training curves read from the run's own
// metrics.jsonl (cached by size and time, re-read as it grows, one range at a time at full resolution), the
// reward-details.json of the attempt the webview selects (looked up in the run's model: only files the model knows
// are read), and the clipboard for copied tables. Every message it answers was validated by the panel.
import * as vscode from 'vscode';
import type { FsPort } from '../../core/fs/port';
import { relativeInside } from '../../core/paths';
import { containment } from '../../core/containment';
import type { Attempt, Evidence, Run } from '../../core/model';
import { readTrainingTable, trainingSeries, type TrainingTable } from '../../core/dashboard/training';
import { rewardDetailNodes } from '../../core/dashboard/rewardDetails';
import type { HostMessage, WebviewMessage } from '../../protocol/runOverview';
import { withLongestBlock } from '../../views/loopBlock';
import { clipForWebview, findAttempt, findTask, overviewId } from '../../views/runOverviewModel';
import { plural } from '../../core/format';

/** reward-details.json files larger than this are not rendered (the file can still be opened). */
const MAX_DETAILS_BYTES = 4 * 1024 * 1024;

function flat(evs: readonly Evidence[]): Evidence[] {
  return evs.flatMap((e) => [e, ...flat(e.children ?? [])]);
}

function detailsFile(a: Attempt): string | undefined {
  return flat(a.evidence).find((e) => e.present && !e.isDir && e.label === 'reward-details.json')?.path;
}

export class DashboardHost {
  private cache: { path: string; key: string; table: TrainingTable } | undefined;
  private range: { from: number | null; to: number | null } = { from: null, to: null };

  constructor(private readonly fs: FsPort, private readonly post: (m: HostMessage) => Thenable<boolean>, private readonly log: (s: string) => void) {}

  /** The run's training metrics as a `training` message (nothing when the run has none). */
  async sendTraining(run: Run): Promise<void> {
    const file = run.files.find((f) => f.key === 'metrics' && f.present && f.path)?.path;
    if (!file) return;
    const inside = await containment(this.fs, run.root, file);
    if (!inside.inside) { this.log(`run dashboard: training metrics not read: ${inside.reason}`); return; }
    const st = await this.fs.stat(file);
    if (!st) return;
    const key = `${st.size}:${st.mtimeMs}`;
    if (this.cache?.path !== file || this.cache.key !== key) {
      const t0 = Date.now();
      // metrics.jsonl is append-only: a file that only grew is read on from where the last read ended (readTrainingTable checks).
      const prev = this.cache?.path === file ? this.cache.table : undefined;
      const { value: table, blockedMs } = await withLongestBlock(() => readTrainingTable(this.fs, file, prev));
      this.cache = { path: file, key, table };
      const added = table.lastRead.continued ? ` (${table.lastRead.rows} new)` : '';
      this.log(`run dashboard: read ${table.size} training steps${added} in ${Date.now() - t0} ms, longest block ${Math.round(blockedMs)} ms`);
    }
    await this.post({ type: 'training', series: trainingSeries(this.cache.table, this.range) });
  }

  /** Answers the dashboard's own messages; false for the ones it does not handle. */
  async handle(run: Run | undefined, m: WebviewMessage): Promise<boolean> {
    switch (m.type) {
      case 'trainingRange':
        this.range = { from: m.from, to: m.to };
        if (run) await this.sendTraining(run);
        return true;
      case 'selectAttempt':
        if (run) await this.sendRewardDetails(run, m.taskId, m.attemptId);
        return true;
      case 'copy':
        await vscode.env.clipboard.writeText(m.text);
        void vscode.window.setStatusBarMessage(`Copied ${m.what}${m.rows === undefined ? '' : `, ${plural(m.rows, 'row')},`} as ${m.format === 'csv' ? 'CSV' : 'Markdown'}`, 5000);
        return true;
      default:
        return false;
    }
  }

  /** The selected attempt's reward-details.json, else the first of its task's attempts that has one. */
  private async sendRewardDetails(run: Run, taskId: string, attemptId: string): Promise<void> {
    const task = findTask(run, taskId);
    if (!task) return;
    const chosen = findAttempt(run, taskId, attemptId)?.attempt;
    const withDetails = [chosen, ...task.attempts].find((a): a is Attempt => !!a && !!detailsFile(a));
    if (!withDetails) return;
    const file = detailsFile(withDetails)!;
    const rel = relativeInside(run.root, file);
    let error: string | null = null;
    let nodes: ReturnType<typeof rewardDetailNodes> = [];
    try {
      const inside = await containment(this.fs, run.root, file);
      const st = inside.inside ? await this.fs.stat(file) : undefined;
      if (!inside.inside) error = `reward-details.json not read: ${inside.reason}`;
      else if (!st) error = 'reward-details.json is no longer on disk';
      else if (st.size > MAX_DETAILS_BYTES) error = `reward-details.json is ${st.size} bytes: too large to render here (open the file)`;
      else nodes = rewardDetailNodes(JSON.parse(new TextDecoder('utf-8').decode(await this.fs.readFile(file))));
    } catch (e) {
      error = `reward-details.json cannot be read: ${e instanceof Error ? e.message : String(e)}`;
    }
    const details = { taskId, attemptId: overviewId(withDetails.id, withDetails.index), file: rel, nodes, error };
    await this.post({ type: 'rewardDetails', details: clipForWebview(run, details) });
  }
}
