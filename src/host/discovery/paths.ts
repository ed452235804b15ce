import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * zot's home folder: `$ZOT_HOME`, else the platform default
 * (Linux `$XDG_STATE_HOME/zot` or `~/.local/state/zot`,
 * macOS `~/Library/Application Support/zot`, Windows `%LOCALAPPDATA%\zot`).
 */
export function defaultZotHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (env.ZOT_HOME) return path.resolve(env.ZOT_HOME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'zot');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'zot');
  return path.join(env.XDG_STATE_HOME || path.join(home, '.local', 'state'), 'zot');
}

export const globalExtensionsDir = (zotHome: string): string => path.join(zotHome, 'extensions');
export const projectExtensionsDir = (projectDir: string): string => path.join(projectDir, '.zot', 'extensions');

/** zot's log location for one extension: `$ZOT_HOME/logs/ext-<name>.log`. */
export function extensionLogPath(zotHome: string, name: string): string {
  return path.join(zotHome, 'logs', `ext-${logFileStem(name)}.log`);
}

/** Longest stem kept as is: with "ext-", ".log" and a rotation's ".1" it stays under the usual 255-byte limit. */
const MAX_STEM = 200;

/**
 * A name as a file name, one to one: plain names stay as they are (zot's own
 * file); any other byte of its UTF-8, "%" included, becomes "%xx", so `a/b`
 * and `a_b` never meet; a lone surrogate, which UTF-8 cannot carry (it would
 * become U+FFFD, as a real U+FFFD does), becomes "%uxxxx"; a stem too long
 * for a file name is cut and ends in "~" and a hash of the whole name ("~" is
 * never otherwise produced).
 */
export function logFileStem(name: string): string {
  let stem = '';
  for (let i = 0; i < name.length; i++) {
    const unit = name.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < name.length && name.charCodeAt(i + 1) >= 0xdc00 && name.charCodeAt(i + 1) <= 0xdfff;
    if (!pair && unit >= 0xd800 && unit <= 0xdfff) {
      stem += `%u${unit.toString(16)}`;
      continue;
    }
    const ch = pair ? name.slice(i, ++i + 1) : name[i]!;
    for (const byte of Buffer.from(ch, 'utf8')) {
      const c = String.fromCharCode(byte);
      stem += /[A-Za-z0-9._@+-]/.test(c) && !(c === '.' && stem === '') ? c : `%${byte.toString(16).padStart(2, '0')}`;
    }
  }
  if (stem.length <= MAX_STEM) return stem;
  return `${stem.slice(0, MAX_STEM - 17)}~${createHash('sha256').update(Buffer.from(stem)).digest('hex').slice(0, 16)}`;
}
