/**
 * The agent hook file zot writes, read and written without VS Code: its
 * text, how zot knows its own, writing it where a workspace cannot redirect
 * the write, and keeping a workspace's copy out of git (it names this
 * machine's paths). It holds no secret: the token windows prove is in the
 * windows folder (src/host/hooks/windows.ts).
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { HOOK_TIMEOUT_S, hookCommandLine, INSTALLED_HOOKS, replaceFile, WINDOWS_VAR } from '../../host/hooks/index.js';
import { hostProgram } from '../../host/index.js';

export const HOOK_FILE_NAME = 'zot-extensions.json';
export { HOOK_TIMEOUT_S, INSTALLED_HOOKS };

interface HookCommand { type: 'command'; command: string; env: Record<string, string>; timeout: number }
export interface HookFile { hooks: Record<string, HookCommand[]> }

export interface HookFileInputs {
  /** The program that runs zot-host: VS Code's own runtime (as Node, through ELECTRON_RUN_AS_NODE). */
  runtime: string;
  /** The installed dist/hook.js (zot-host's hook verb alone). */
  hook: string;
  /** The user's own zot home (never a workspace's: the file runs in every project, and asks no consent). */
  zotHome: string;
  /** Where windows that answer hooks list themselves, with the token they share. */
  windows: string;
  /** zot.hooks.failClosed: a call or prompt whose guards could not all run is refused. */
  failClosed?: boolean;
}

/**
 * The hook file: each hook runs zot-host with the windows folder; without a
 * window for the project, the global extensions only (`--no-project`): a
 * project's own run only where they were allowed.
 */
export function hookFileText(i: HookFileInputs): string {
  const env = { ELECTRON_RUN_AS_NODE: '1', [WINDOWS_VAR]: i.windows };
  const hooks: HookFile = { hooks: Object.fromEntries(INSTALLED_HOOKS.map((e) => [e, [{ type: 'command', command: hookCommandLine(i, e), env, timeout: HOOK_TIMEOUT_S }]])) };
  return `${JSON.stringify(hooks, null, 2)}\n`;
}

/** The hook file at `file` when it is one zot wrote (its commands run zot-host hook). */
export async function readOurs(file: string): Promise<HookFile | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as HookFile;
    const pre = parsed?.hooks?.PreToolUse?.[0];
    return typeof pre?.command === 'string' && / hook PreToolUse\b/.test(pre.command) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes a workspace's hook file inside `root` and nowhere else: each folder
 * on the way (`.github`, `.github/hooks`) must be a real folder, not a link,
 * and the file is written beside its place and renamed over it, so a link a
 * repository put there is replaced, never followed (`../../.bashrc`).
 */
export async function writeConfined(root: string, file: string, text: string): Promise<void> {
  const rel = path.relative(root, path.dirname(file));
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${file} is not inside ${root}`);
  let dir = root;
  for (const part of rel ? rel.split(path.sep) : []) {
    dir = path.join(dir, part);
    const st = await fsp.lstat(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
    if (!st) await fsp.mkdir(dir);
    else if (st.isSymbolicLink()) throw new Error(`${dir} is a symbolic link; the hook file is not written through it`);
    else if (!st.isDirectory()) throw new Error(`${dir} is not a folder`);
  }
  await replaceFile(file, text, 0o600);
}

/**
 * Lists the workspace hook file in its repository's own exclude file (never
 * .gitignore): the repository git itself finds from the file's folder, so a
 * workspace that is a sub-folder of a repository, or a worktree (whose
 * exclude file is the main repository's), is covered too.
 */
export async function keepOutOfGit(file: string): Promise<void> {
  const found = await git(path.dirname(file), ['rev-parse', '--git-common-dir', '--show-toplevel']);
  const [common, top] = found?.split('\n') ?? [];
  if (!common || !top) return;
  const exclude = path.join(path.resolve(path.dirname(file), common), 'info', 'exclude');
  // git names the top folder by its real path.
  const real = path.join(await fsp.realpath(path.dirname(file)), path.basename(file));
  const line = `/${path.relative(top, real).split(path.sep).join('/')}`;
  const text = await fsp.readFile(exclude, 'utf8').catch(() => '');
  if (text.split(/\r?\n/).includes(line)) return;
  await fsp.mkdir(path.dirname(exclude), { recursive: true });
  await fsp.appendFile(exclude, `${text && !text.endsWith('\n') ? '\n' : ''}# the zot agent hook file names this machine's paths\n${line}\n`);
}

/** Whether git tracks `file` (then leaving it out of git cannot help: a change to it shows). */
export async function trackedByGit(file: string): Promise<boolean> {
  return (await git(path.dirname(file), ['ls-files', '--error-unmatch', '--', path.basename(file)])) !== undefined;
}

/** git's answer in `cwd`, or undefined where it fails; the repository's settings and git's variables run nothing. */
function git(cwd: string, args: string[]): Promise<string | undefined> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  // By its full path: by its bare name Windows would look for a git.exe in the workspace's folder first.
  const program = hostProgram('git');
  if (!program) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile(program, ['-c', 'core.fsmonitor=false', ...args], { cwd, env, timeout: 10_000, windowsHide: true, maxBuffer: 1024 * 1024 }, (err, stdout) => resolve(err ? undefined : stdout.trim()));
  });
}
