/**
 * The last look at the disk before a run's `workspace_changed` goes out
 * (docs/TERVA.md 18): the watcher says which paths a run touched and whether
 * each was there when it began; the disk says whether it is there now (a
 * watcher's events lag the disk), folders are left out (their files are
 * listed), and git says which paths `.gitignore` leaves out.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { hostProgram } from '../process/resolveExec.js';
import type { ChangeKind, WorkspaceChange } from './workspaceChanges.js';

/** What is at a path now. */
type Found = 'file' | 'folder' | 'none';

async function lookAt(abs: string): Promise<Found> {
  try {
    return (await fsp.lstat(abs)).isDirectory() ? 'folder' : 'file';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'none' : 'file';
  }
}

/**
 * The net changes as the disk has them now: a path that was there before
 * (modified, deleted) and is a file now is modified, gone now is deleted;
 * one that was not (added) is added if a file is there, else nothing. A
 * folder that is there now is left out. A deleted folder stays one entry:
 * the watcher does not say what was in it.
 */
export async function settleOnDisk(root: string, files: readonly WorkspaceChange[]): Promise<WorkspaceChange[]> {
  const found = await Promise.all(files.map((f) => lookAt(path.join(root, ...f.path.split('/')))));
  const out: WorkspaceChange[] = [];
  files.forEach((f, i) => {
    const now = found[i]!;
    if (now === 'folder') return;
    const before = f.change !== 'added';
    const change: ChangeKind | undefined = before ? (now === 'file' ? 'modified' : 'deleted') : now === 'file' ? 'added' : undefined;
    if (change) out.push({ path: f.path, change });
  });
  return out;
}

/**
 * Of these paths (relative to `root`, with `/`), those git ignores
 * (`.gitignore` files, `.git/info/exclude`, the user's excludes file; a
 * tracked file never counts as ignored), asked with `git check-ignore` in
 * `root`. Empty when `root` is not in a git work tree or git cannot say (not
 * on PATH, a time-out). git is found on PATH's absolute entries, its
 * file-system monitor is off and the caller's GIT_ variables are dropped.
 */
export function gitIgnored(root: string, rels: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ReadonlySet<string>> {
  if (rels.length === 0) return Promise.resolve(new Set());
  const git = hostProgram('git', env);
  if (!git) return Promise.resolve(new Set());
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('GIT_')) clean[k] = v;
  clean.GIT_OPTIONAL_LOCKS = '0';
  return new Promise((resolve) => {
    const child = execFile(git, ['-c', 'core.fsmonitor=false', 'check-ignore', '--stdin', '-z'], { cwd: root, env: clean, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 10_000, windowsHide: true }, (err, stdout) => {
      // 1: none of them is ignored; anything but 0 or 1 means git could not say.
      const code = (err as { code?: unknown } | null)?.code;
      if (err && code !== 1) return resolve(new Set());
      resolve(new Set(stdout.split('\0').filter((p) => p.startsWith('./')).map((p) => p.slice(2))));
    });
    child.stdin?.on('error', () => undefined);
    // Led by "./", a name that starts with ":" is a name, not pathspec magic; git answers with the name as asked.
    child.stdin?.end(rels.map((r) => `./${r}\0`).join(''));
  });
}

/** The run's changes with what git ignores left out, as the disk has them now. */
export async function finalChanges(root: string, files: readonly WorkspaceChange[], env?: NodeJS.ProcessEnv): Promise<WorkspaceChange[]> {
  const settled = await settleOnDisk(root, files);
  const ignored = await gitIgnored(root, settled.map((f) => f.path), env);
  return ignored.size ? settled.filter((f) => !ignored.has(f.path)) : settled;
}
