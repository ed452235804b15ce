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
 * `cmd.exe /d /s /c "…"`, every argument quoted for cmd. That cmd.exe is
 * System32's (see systemProgram), not ComSpec: ComSpec is whatever the
 * environment says, and it names any program it likes.
 */
export function commandLine(file: string, args: readonly string[], platform: Platform, env: NodeJS.ProcessEnv = {}): CommandLine {
  if (platform !== 'win32') return { file, args: [...args], detached: true, verbatim: false };
  if (/\.(cmd|bat)$/i.test(file)) {
    const line = [quoteProgramForCmd(file), ...args.map(quoteForCmd)].join(' ');
    return { file: systemProgram('cmd.exe', env), args: ['/d', '/s', '/c', `"${line}"`], detached: false, verbatim: true };
  }
  return { file, args: [...args], detached: false, verbatim: false };
}

/** cmd.exe's metacharacters, each escaped with ^ so the shell passes it through. */
const CMD_META = /[()\][%!^"`<>&|;, *?]/g;

/**
 * The program's path for cmd.exe: in double quotes, so that a space or a
 * parenthesis (`C:\Program Files\nodejs\npx.cmd`) stays part of the name.
 * Escaped with ^ instead, cmd takes `C:\Program` for the program (exit 9009).
 * No Windows name holds a `"`, so one in the path is dropped: it could only
 * end the quotes early. (A `%` in the path is still expanded by cmd.)
 */
export function quoteProgramForCmd(file: string): string {
  return `"${file.replace(/"/g, '')}"`;
}

/**
 * One argument to a .cmd or .bat: quoted for the C runtime's parser
 * (backslashes before a quote doubled), then escaped for cmd twice. The
 * argument is parsed twice: by the cmd.exe that runs the shim, and again on
 * the shim's own line where `%*` (or `%1`) puts it. Escaped once, an
 * argument with an odd number of `"` ends the quotes on that second parse,
 * and whatever follows a `&` or `|` in it runs as a command.
 */
export function quoteForCmd(arg: string): string {
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  return escapeForCmd(escapeForCmd(quoted));
}

/** Every cmd.exe metacharacter escaped with ^ (once). */
function escapeForCmd(text: string): string {
  return text.replace(CMD_META, '^$&');
}

export type KillPlan =
  /** Signal the process group (negative pid). */
  | { kind: 'group'; pgid: number; signal: NodeJS.Signals }
  /**
   * Run `taskkill`, which walks the tree on Windows. `orEnd`: the process to
   * end by itself where the forced step's taskkill fails or cannot start.
   */
  | { kind: 'command'; file: string; args: string[]; orEnd?: number };

/**
 * How to end an extension's tree. `force`: the last rung (SIGKILL, or
 * taskkill /F); otherwise the polite one (SIGTERM, or taskkill without /F).
 * `env` locates Windows' own taskkill (see systemProgram).
 */
export function killPlan(pid: number, force: boolean, platform: Platform, env: NodeJS.ProcessEnv = {}): KillPlan {
  if (platform === 'win32') return { kind: 'command', file: systemProgram('taskkill.exe', env), args: ['/PID', String(pid), '/T', ...(force ? ['/F'] : [])], ...(force && { orEnd: pid }) };
  return { kind: 'group', pgid: pid, signal: force ? 'SIGKILL' : 'SIGTERM' };
}

/** How the log says each step of ending an extension's tree, as the platform takes it (see killPlan). */
export interface StopWords {
  /** The polite step, after shutdown went unanswered. */
  polite: string;
  /** The last step, when the polite one was not enough. */
  force: string;
  /** What is ended as a whole. */
  tree: string;
}

export function stopWords(platform: Platform): StopWords {
  if (platform === 'win32') {
    return { polite: 'ending its process tree (taskkill /T)', force: 'still running; forcing its process tree to end (taskkill /T /F)', tree: 'its process tree' };
  }
  return { polite: 'sending SIGTERM to its process group', force: 'ignored SIGTERM; sending SIGKILL to its process group', tree: 'its process group' };
}

/**
 * The full path of one of Windows' own programs, `%SystemRoot%\System32\<name>`.
 * Never the bare name: Windows looks for a bare name in the current folder
 * before PATH, and the current folder is the project or the extension's
 * folder, where anyone can leave a taskkill.exe or cmd.exe.
 */
export function systemProgram(name: string, env: NodeJS.ProcessEnv): string {
  return `${systemRoot(env)}\\System32\\${name}`;
}

/**
 * Windows' folder: SystemRoot, else windir, else C:\Windows. Names are looked
 * up in any case, as Windows does (a copy of process.env is a plain object,
 * so `env.SystemRoot` alone misses `SYSTEMROOT`). A value that is not a plain
 * absolute drive path (relative, drive-relative, a UNC share or device path,
 * `.` or `..` segments, characters no Windows name may hold) is passed over:
 * it would put the program wherever the environment points.
 */
export function systemRoot(env: NodeJS.ProcessEnv): string {
  for (const name of ['SystemRoot', 'windir']) {
    const value = envValue(env, name);
    if (value !== undefined && WINDOWS_FOLDER.test(value)) return value.replace(/[\\/]+$/, '').replace(/\//g, '\\');
  }
  return 'C:\\Windows';
}

/**
 * A drive letter, then the folder's names: none made of dots and spaces only
 * (`.` and `..` step out of the folder, and Windows trims trailing dots and
 * spaces, so `...` is not a safe name either), none with a character Windows
 * forbids in names (`:` would name a stream).
 */
const WINDOWS_FOLDER = /^[A-Za-z]:(?:[\\/](?![. ]*(?:[\\/]|$))[^\\/<>:"|?*\x00-\x1f]+)+[\\/]*$/;

/** The value of `name` in `env`, its own spelling first, then any other case. */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  if (env[name] !== undefined) return env[name];
  const lower = name.toLowerCase();
  const key = Object.keys(env).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : env[key];
}
