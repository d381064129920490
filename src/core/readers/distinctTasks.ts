// A summary that lists one task id for two of its tasks (a hand-merged or edited file; no writer we know of does it):
// each task keeps its own entry, the later ones under "<id> [2]", "<id> [3]" …, with a warning at the entry. Two tasks
// under one id would share their tree items (VS Code refuses an id registered twice) and pool their attempts in
// pass@k as one task (a run of 2 repeats reported pass@4).
import type { Task } from '../model';
import type { NormTask } from './nemo/summaryShape';

export class DistinctTaskIds {
  private readonly taken = new Map<string, number>();

  /** Registers a task's id: undefined when it is the first with it, else the id it is shown under instead. */
  take(id: string): string | undefined {
    const n = this.taken.get(id);
    if (n === undefined) { this.taken.set(id, 1); return undefined; }
    let k = n + 1;
    while (this.taken.has(`${id} [${k}]`)) k++;
    const renamed = `${id} [${k}]`;
    this.taken.set(id, k);
    this.taken.set(renamed, 1);
    return renamed;
  }
}

export function duplicateTaskMessage(id: string, renamed: string): string {
  return `task id "${id}" is given to an earlier task too: this entry is shown as "${renamed}", a task of its own`;
}

/** A read task under another id: its label and its attempts' ids (which begin with the task's id) follow. */
export function renameTask(task: Task, renamed: string): void {
  const old = task.id;
  task.id = renamed;
  task.label = renamed;
  for (const a of task.attempts) if (a.id.startsWith(old)) a.id = renamed + a.id.slice(old.length);
}

/** The tasks of a run summary as read, each with a distinct id (`onDuplicate` told of each renamed one). */
export async function* distinctNormTasks(tasks: Iterable<NormTask> | AsyncIterable<NormTask>,
  onDuplicate: (t: NormTask, id: string, renamed: string) => void): AsyncGenerator<NormTask> {
  const ids = new DistinctTaskIds();
  for await (const t of tasks) {
    const renamed = ids.take(t.taskId);
    if (renamed !== undefined) { onDuplicate(t, t.taskId, renamed); t.taskId = renamed; }
    yield t;
  }
}
