/**
 * The platform decisions of the process layer, as pure functions: which
 * command line starts an extension and which command ends its tree. Kept
 * apart from the code that acts on them so each platform's choice is unit
 * tested on any machine (Windows cannot run the suites here).
 */

export type Platform = NodeJS.Platform;

export interface CommandLine {
  file: string;
  args: string[];
  /** POSIX: its own process group, so the whole tree can be signalled at once. */
  detached: boolean;
  /** Windows: pass `args` to cmd.exe exactly as quoted here. */
  verbatim: boolean;
}

/**
 * How to start `file`. On Windows a `.cmd` or `.bat` shim (what npm and many
 * installers put on PATH) cannot be spawned directly: it runs through
 * `cmd.exe /d /s /c "…"`, every argument quoted for cmd.
 */
export function commandLine(file: string, args: readonly string[], platform: Platform, env: NodeJS.ProcessEnv = {}): CommandLine {
  if (platform !== 'win32') return { file, args: [...args], detached: true, verbatim: false };
  if (/\.(cmd|bat)$/i.test(file)) {
    const line = [escapeForCmd(file), ...args.map(quoteForCmd)].join(' ');
    return { file: env.ComSpec ?? env.COMSPEC ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], detached: false, verbatim: true };
  }
  return { file, args: [...args], detached: false, verbatim: false };
}

/** cmd.exe's metacharacters, each escaped with ^ so the shell passes it through. */
const CMD_META = /[()\][%!^"`<>&|;, *?]/g;

/** The program's path for cmd.exe: no quotes (cmd would take them as part of the name), metacharacters escaped. */
export function escapeForCmd(file: string): string {
  return file.replace(CMD_META, '^$&');
}

/** One argument for cmd.exe: quoted for the C runtime's parser (backslashes before a quote doubled), then escaped for cmd. */
export function quoteForCmd(arg: string): string {
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  return quoted.replace(CMD_META, '^$&');
}

export type KillPlan =
  /** Signal the process group (negative pid). */
  | { kind: 'group'; pgid: number; signal: NodeJS.Signals }
  /** Run `taskkill`, which walks the tree on Windows. */
  | { kind: 'command'; file: string; args: string[] };

/**
 * How to end an extension's tree. `force`: the last rung (SIGKILL, or
 * taskkill /F); otherwise the polite one (SIGTERM, or taskkill without /F).
 */
export function killPlan(pid: number, force: boolean, platform: Platform): KillPlan {
  if (platform === 'win32') return { kind: 'command', file: 'taskkill', args: ['/PID', String(pid), '/T', ...(force ? ['/F'] : [])] };
  return { kind: 'group', pgid: pid, signal: force ? 'SIGKILL' : 'SIGTERM' };
}
