/**
 * What a manifest's `exec` names, by zot's rules: an absolute path as is; one
 * starting with `./` or `../` or holding a separator relative to the
 * extension folder; a bare name looked up on PATH. On Windows a name without
 * one of `PATHEXT`'s extensions is tried with each of them in turn (so `npx`
 * finds `npx.cmd`), as the shell does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Platform } from './platform.js';

export type ExecResult = { ok: true; file: string; inFolder: boolean } | { ok: false; error: string };

/** Why `file` cannot be run, or undefined when it can. */
export type ExecutableCheck = (file: string) => string | undefined;

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

export function resolveExec(
  exec: string,
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: Platform = process.platform,
  check: ExecutableCheck = (f) => executableProblem(f, platform),
): ExecResult {
  const isWin = platform === 'win32';
  const p = isWin ? path.win32 : path.posix;
  const exts = isWin ? candidateExtensions(exec, env.PATHEXT ?? env.PathExt ?? DEFAULT_PATHEXT) : [''];
  const hasSep = exec.includes('/') || (isWin && exec.includes('\\'));
  if (p.isAbsolute(exec) || hasSep) {
    const base = p.isAbsolute(exec) ? exec : p.resolve(dir, exec);
    let problem: string | undefined;
    for (const ext of exts) {
      const file = base + ext;
      const why = check(file);
      if (!why) return { ok: true, file, inFolder: file.startsWith(p.resolve(dir) + p.sep) };
      problem ??= why;
    }
    return { ok: false, error: `exec "${exec}" (${base}) ${problem}` };
  }
  // On Windows a relative PATH entry (`.`, `bin`) would give a name the
  // spawn resolves against the extension's folder, or a bare one it looks
  // for there first: only absolute entries count.
  const dirs = (env.PATH ?? env.Path ?? '').split(isWin ? ';' : ':').filter((d) => d && (!isWin || p.isAbsolute(d)));
  for (const d of dirs) {
    for (const ext of exts) {
      const file = p.join(d, exec + ext);
      if (!check(file)) return { ok: true, file, inFolder: false };
    }
  }
  return { ok: false, error: `exec "${exec}" was not found on PATH` };
}

/**
 * A program the host itself runs (git), found on PATH's absolute entries
 * only, whatever the platform: a bare name would be looked for in the folder
 * it runs in first on Windows (an extension's, a workspace's), and a
 * relative entry names that folder everywhere. Undefined when not found.
 */
export function hostProgram(name: string, env: NodeJS.ProcessEnv = process.env, platform: Platform = process.platform, check?: ExecutableCheck): string | undefined {
  const isWin = platform === 'win32';
  const p = isWin ? path.win32 : path.posix;
  // Windows names its variables in any case.
  const key = isWin ? Object.keys(env).find((k) => k.toUpperCase() === 'PATH') : 'PATH';
  const dirs = (key === undefined ? '' : env[key] ?? '').split(isWin ? ';' : ':').filter((d) => d && p.isAbsolute(d));
  const found = resolveExec(name, p.parse(process.cwd()).root, { PATH: dirs.join(isWin ? ';' : ':'), PATHEXT: env.PATHEXT ?? env.PathExt }, platform, check);
  return found.ok ? found.file : undefined;
}

/** The suffixes to try: none when the name already ends in one of PATHEXT's, else each of them. */
export function candidateExtensions(exec: string, pathext: string): string[] {
  const list = pathext.split(';').map((e) => e.trim()).filter(Boolean);
  const lower = exec.toLowerCase();
  if (list.some((e) => lower.endsWith(e.toLowerCase()))) return [''];
  return ['', ...list];
}

function executableProblem(file: string, platform: Platform): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return 'does not exist';
  }
  if (!st.isFile()) return 'is not a file';
  if (platform !== 'win32') {
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      return 'is not executable (chmod +x it)';
    }
  }
  return undefined;
}
