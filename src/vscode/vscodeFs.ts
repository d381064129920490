// FsPort on `vscode.workspace.fs` for the workspace's `file:` folders (the only ones the extension reads: it runs
// where the files are, extensionKind "workspace", so over Remote-SSH, WSL and code-server they are `file:` too).
// workspace.fs has no streaming and no bounded read: readFile, readChunks, openSequential, listDirs, probeDirs, gather,
// writeFileAtomic, remove, realpath and realpathDirs use Node (a FIFO or a device is never read), keeping memory
// constant on 1 GB files and listing a run's verifier folders on a worker thread, off the extension host's thread. Folders of other schemes (virtual workspaces) are not read.
import * as vscode from 'vscode';
import type { EntryType, FileStat, FsPort } from '../core/fs/port';
import { NodeFs } from '../core/fs/nodeFs';

function typeOf(t: vscode.FileType): EntryType {
  if (t & vscode.FileType.Directory) return 'dir';
  if (t & vscode.FileType.File) return 'file';
  return 'other';
}

export class VscodeFs implements FsPort {
  private readonly node = new NodeFs();
  /** Workspace `file:` paths, local to the extension (extensionKind workspace), read by Node as NodeFs reads them. */
  readonly nodeLocal = true;

  /** `limitMB`: the read limit as the harborRuns.maxFileSizeMB setting says now (asked at each read). */
  constructor(private readonly limitMB: () => number | undefined = () => undefined) {}

  async stat(p: string): Promise<FileStat | undefined> {
    try {
      const s = await vscode.workspace.fs.stat(vscode.Uri.file(p));
      return { type: typeOf(s.type), size: s.size, mtimeMs: s.mtime };
    } catch {
      return undefined;
    }
  }

  /**
   * Node's bounded read (docs/untrusted-runs.md#reads): opened non-blocking, its own type checked before a byte is
   * read (a FIFO or /dev/zero a run names would hang or exhaust the extension host through workspace.fs.readFile),
   * at most the read limit. The files are the workspace's, local to the extension (extensionKind workspace).
   */
  get maxFileBytes(): number {
    const mb = this.limitMB();
    return mb !== undefined && Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : this.node.maxFileBytes;
  }

  readFile(p: string, opts?: { maxBytes?: number }): Promise<Uint8Array> {
    return this.node.readFile(p, { ...opts, maxBytes: opts?.maxBytes ?? this.maxFileBytes });
  }

  async readDir(p: string): Promise<[string, EntryType][]> {
    try {
      // A symlink reports SymbolicLink | <target type>; a dangling one reports SymbolicLink only ('other').
      return (await vscode.workspace.fs.readDirectory(vscode.Uri.file(p))).map(([name, t]) => [name, typeOf(t)]);
    } catch {
      return [];
    }
  }

  readChunks(p: string, chunkSize?: number, start?: number): AsyncIterable<Uint8Array> {
    return this.node.readChunks(p, chunkSize, start);
  }

  openSequential: NonNullable<FsPort['openSequential']> = (p) => this.node.openSequential(p);

  listDirs: NonNullable<FsPort['listDirs']> = (paths) => this.node.listDirs(paths);

  listNames: NonNullable<FsPort['listNames']> = (p) => this.node.listNames(p);

  probeDirs: NonNullable<FsPort['probeDirs']> = (candidates, names) => this.node.probeDirs(candidates, names);

  /**
   * The readers' batches (a Harbor job's trial folders, listings and small files) on Node's worker thread, as the
   * CLI reads them: through workspace.fs each folder and file was a round trip to the workbench, ~10× the CLI's time
   * on a big job. Each file is read at most up to the read limit (harborRuns.maxFileSizeMB) as well as its own cap.
   */
  gather: NonNullable<FsPort['gather']> = (lists, reads, stats) => {
    const max = this.maxFileBytes;
    return this.node.gather(lists, reads.map((r) => (r.maxBytes <= max ? r : { path: r.path, maxBytes: max })), stats);
  };

  async mkdirp(p: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(p));
  }

  writeFileAtomic(p: string, data: Uint8Array): Promise<void> {
    return this.node.writeFileAtomic(p, data);
  }

  /** Deletes a file, no error when it is gone (the summary writer removes temp files dead writers left). */
  remove(p: string): Promise<void> {
    return this.node.remove(p);
  }

  realpathDirs(p: string): Promise<string> {
    return this.node.realpathDirs(p);
  }

  /** Links resolved by Node: the extension runs where the files are, so workspace paths are local to it. */
  realpath(p: string): Promise<string | undefined> {
    return this.node.realpath(p);
  }
}
