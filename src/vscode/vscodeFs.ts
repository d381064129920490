// FsPort on `vscode.workspace.fs`, so the core reads runs wherever the workspace lives (Remote-SSH, code-server).
// workspace.fs has no streaming: for `file:` paths readChunks, openSequential, listDirs, writeFileAtomic and
// realpathDirs use Node (the extension runs on the workspace side: extensionKind "workspace"), keeping memory
// constant on 1 GB files and listing a run's verifier folders on a worker thread, off the extension host's thread.
import * as vscode from 'vscode';
import { type EntryType, type FileStat, type FsPort, atomicTempPath } from '../core/fs/port';
import { NodeFs } from '../core/fs/nodeFs';

function typeOf(t: vscode.FileType): EntryType {
  if (t & vscode.FileType.Directory) return 'dir';
  if (t & vscode.FileType.File) return 'file';
  return 'other';
}

export class VscodeFs implements FsPort {
  private readonly node = new NodeFs();

  /** Present for `file:` paths only (FsPort's optional fast paths; other schemes go through workspace.fs). */
  readonly openSequential?: FsPort['openSequential'];
  readonly listDirs?: FsPort['listDirs'];
  readonly probeDirs?: FsPort['probeDirs'];

  /** `scheme` is the workspace folders' URI scheme ('file' locally and over remotes). */
  constructor(private readonly scheme = 'file') {
    if (scheme === 'file') {
      this.openSequential = (p) => this.node.openSequential(p);
      this.listDirs = (paths) => this.node.listDirs(paths);
      this.probeDirs = (candidates, names) => this.node.probeDirs(candidates, names);
    }
  }

  private uri(p: string): vscode.Uri {
    return this.scheme === 'file' ? vscode.Uri.file(p) : vscode.Uri.from({ scheme: this.scheme, path: p });
  }

  async stat(p: string): Promise<FileStat | undefined> {
    try {
      const s = await vscode.workspace.fs.stat(this.uri(p));
      return { type: typeOf(s.type), size: s.size, mtimeMs: s.mtime };
    } catch {
      return undefined;
    }
  }

  async readFile(p: string): Promise<Uint8Array> {
    return vscode.workspace.fs.readFile(this.uri(p));
  }

  async readDir(p: string): Promise<[string, EntryType][]> {
    try {
      const entries = await vscode.workspace.fs.readDirectory(this.uri(p));
      const out: [string, EntryType][] = [];
      for (const [name, t] of entries) {
        // A symlink reports SymbolicLink | <target type>; a dangling one reports SymbolicLink only ('other').
        out.push([name, typeOf(t)]);
      }
      return out;
    } catch {
      return [];
    }
  }

  async *readChunks(p: string, chunkSize?: number): AsyncIterable<Uint8Array> {
    if (this.scheme === 'file') {
      yield* this.node.readChunks(p, chunkSize);
      return;
    }
    // No streaming in workspace.fs: one read, handed out in chunks (remote-only file systems).
    const all = await this.readFile(p);
    const size = chunkSize ?? 1 << 20;
    for (let off = 0; off < all.length; off += size) yield all.subarray(off, Math.min(all.length, off + size));
  }

  async mkdirp(p: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(this.uri(p));
  }

  async writeFileAtomic(p: string, data: Uint8Array): Promise<void> {
    if (this.scheme === 'file') return this.node.writeFileAtomic(p, data);
    const slash = p.lastIndexOf('/');
    const hex = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
    const tmp = atomicTempPath(p, process.pid, hex);
    await this.mkdirp(p.slice(0, slash) || '/');
    try {
      await vscode.workspace.fs.writeFile(this.uri(tmp), data);
      await vscode.workspace.fs.rename(this.uri(tmp), this.uri(p), { overwrite: true });
    } catch (e) {
      await Promise.resolve(vscode.workspace.fs.delete(this.uri(tmp))).catch(() => undefined);
      throw e;
    }
  }

  /** Deletes a file (the summary writer removes temp files dead writers left). */
  async remove(p: string): Promise<void> {
    await vscode.workspace.fs.delete(this.uri(p), { useTrash: false });
  }

  async realpathDirs(p: string): Promise<string> {
    return this.scheme === 'file' ? this.node.realpathDirs(p) : p;
  }
}
