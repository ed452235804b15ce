/**
 * The command an agent runs for a zot guard: zot-host's hook verb, run by a
 * given program, with the user's own zot home and never a project's own
 * extensions (a hook runs in every project and asks no consent). One source
 * for the editor's hook file (src/vscode/hooks/hookFile.ts) and the agent
 * plugin (plugin.ts), so both run the verb the same way.
 */

/** The hooks zot installs: the two where a guard decides (the events cost a start each and decide nothing). */
export const INSTALLED_HOOKS = ['PreToolUse', 'UserPromptSubmit'] as const;
export type InstalledHook = (typeof INSTALLED_HOOKS)[number];

export interface HookCommandInputs {
  /** The program that runs zot-host: Node, or VS Code's own runtime as Node (ELECTRON_RUN_AS_NODE in the hook's environment). */
  runtime: string;
  /** zot-host's dist/hook.js: the hook verb alone, which loads dist/cli.js beside it only when no window answers. */
  hook: string;
  /** The user's own zot home. */
  zotHome: string;
  /** A call or prompt whose guards could not all run is refused. */
  failClosed?: boolean;
}

/** The command line of the hook for `event`, each path one shell word. */
export function hookCommandLine(i: HookCommandInputs, event: InstalledHook): string {
  return `${shellWord(i.runtime)} ${shellWord(i.hook)} hook ${event} --no-project${i.failClosed ? ' --fail-closed' : ''} --home ${shellWord(i.zotHome)}`;
}

/** A path as one word of a shell command line: cmd.exe's quotes on Windows, a POSIX shell's elsewhere. */
export function shellWord(s: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `"${s.replace(/"/g, '""')}"` : `'${s.replace(/'/g, `'\\''`)}'`;
}
