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
  // Names come from manifests; keep the file inside logs/ whatever they contain.
  const safe = name.replace(/[^A-Za-z0-9._@+-]/g, '_').replace(/^\.+/, '_');
  return path.join(zotHome, 'logs', `ext-${safe}.log`);
}
