/**
 * The agent hook file zot writes, read and written without VS Code: its
 * text, how zot knows its own, its token, and keeping a workspace's copy out
 * of git (it holds a token of this machine).
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/** The hooks zot installs: the two where a guard decides (the events cost a start each and decide nothing). */
export const INSTALLED_HOOKS = ['PreToolUse', 'UserPromptSubmit'] as const;
export const HOOK_FILE_NAME = 'zot-extensions.json';
/** VS Code's agent runs a hook for at most this long (seconds). */
export const HOOK_TIMEOUT_S = 15;

interface HookCommand { type: 'command'; command: string; env: Record<string, string>; timeout: number }
export interface HookFile { hooks: Record<string, HookCommand[]> }

export interface HookFileInputs {
  /** The program that runs zot-host: VS Code's own runtime (as Node, through ELECTRON_RUN_AS_NODE). */
  runtime: string;
  /** The installed dist/cli.js. */
  cli: string;
  zotHome: string;
  token: string;
  /** Where windows that answer hooks list themselves. */
  windows: string;
}

/**
 * The hook file: each hook runs zot-host with the window list and the token;
 * without a window for the project, the global extensions only
 * (`--no-project`): a project's own run only where they were allowed.
 */
export function hookFileText(i: HookFileInputs): string {
  const env = { ELECTRON_RUN_AS_NODE: '1', ZOT_HOOK_TOKEN: i.token, ZOT_HOOK_WINDOWS: i.windows };
  const base = `${quote(i.runtime)} ${quote(i.cli)} hook`;
  const hooks: HookFile = { hooks: Object.fromEntries(INSTALLED_HOOKS.map((e) => [e, [{ type: 'command', command: `${base} ${e} --no-project --home ${quote(i.zotHome)}`, env, timeout: HOOK_TIMEOUT_S }]])) };
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

/** Lists the workspace hook file in the repository's own exclude file (never .gitignore): its token must not be committed. */
export async function keepOutOfGit(file: string): Promise<void> {
  const root = path.dirname(path.dirname(path.dirname(file)));
  const gitDir = path.join(root, '.git');
  const stat = await fsp.stat(gitDir).catch(() => undefined);
  if (!stat?.isDirectory()) return;
  const exclude = path.join(gitDir, 'info', 'exclude');
  const line = `/.github/hooks/${HOOK_FILE_NAME}`;
  const text = await fsp.readFile(exclude, 'utf8').catch(() => '');
  if (text.split(/\r?\n/).includes(line)) return;
  await fsp.mkdir(path.dirname(exclude), { recursive: true });
  await fsp.appendFile(exclude, `${text && !text.endsWith('\n') ? '\n' : ''}# the zot agent hook file holds a token of this machine\n${line}\n`);
}

export function tokenOf(file: HookFile | undefined): string | undefined {
  const t = file?.hooks?.PreToolUse?.[0]?.env?.ZOT_HOOK_TOKEN;
  return typeof t === 'string' && t.length >= 32 ? t : undefined;
}

export const newToken = (): string => randomBytes(32).toString('base64url');

/** A path as one word of a shell command line. */
export function quote(s: string): string {
  return process.platform === 'win32' ? `"${s.replace(/"/g, '""')}"` : `'${s.replace(/'/g, `'\\''`)}'`;
}
