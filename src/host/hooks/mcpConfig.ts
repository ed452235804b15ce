/**
 * The zot server as an entry of an MCP config file a harness reads instead
 * of an editor's provider: a project's `.mcp.json` (Claude Code; Copilot CLI
 * reads it and `.github/mcp.json` in a trusted folder) or Copilot CLI's
 * `~/.copilot/mcp-config.json`. Only the entry `zot` is written; every other
 * server and field of the file stays as it was. An entry `zot` already there
 * is replaced only when zot-host wrote it (it runs `<…>/cli.js mcp
 * --no-project`); a file that is not a JSON object, or a link, is left alone.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { PLUGIN_SERVER } from '../harnessNames.js';
import { PRIVATE_DIR } from './pluginOwner.js';
import { replaceFile } from './replaceFile.js';

/** A stdio server entry: the shape both files take (Copilot CLI's `tools` names what it may call: all). */
export interface McpEntry { type: 'stdio'; command: string; args: string[]; env: Record<string, string>; tools: string[] }

/** The entry running zot-host's MCP server from `cli` with `runtime`, for the global extensions of `zotHome`. */
export function zotMcpEntry(runtime: string, cli: string, zotHome: string, env: Record<string, string> = {}): McpEntry {
  return { type: 'stdio', command: runtime, args: [cli, 'mcp', '--no-project', '--home', zotHome], env, tools: ['*'] };
}

/** Whether an entry is one zot-host wrote: its server is zot-host's, run from a cli.js with `mcp --no-project`. */
function isOurs(entry: unknown): boolean {
  const args = (entry as { args?: unknown } | null)?.args;
  return Array.isArray(args) && typeof args[0] === 'string' && path.basename(args[0]) === 'cli.js' && args[1] === 'mcp' && args[2] === '--no-project';
}

/**
 * Puts `entry` into `file` as the server `zot`, made whole beside it and
 * renamed into place. Throws, leaving the file as it was, for what it must
 * not change; says whether an entry of ours was replaced.
 */
export async function writeMcpEntry(file: string, entry: McpEntry): Promise<{ replaced: boolean }> {
  const target = path.resolve(file);
  const st = await fsp.lstat(target).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
  let config: Record<string, unknown> = {};
  if (st) {
    if (st.isSymbolicLink()) throw new Error(`${target} is a symbolic link; the MCP config is not written through it`);
    if (!st.isFile()) throw new Error(`${target} exists and is not a file; it is left as it is`);
    const text = await fsp.readFile(target, 'utf8');
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch (e) {
      throw new Error(`${target} is not JSON (${(e as Error).message}); it is left as it is`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${target} does not hold a JSON object; it is left as it is`);
    config = parsed as Record<string, unknown>;
  }
  const servers = config.mcpServers ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) throw new Error(`${target}: "mcpServers" is not an object; it is left as it is`);
  const existing = (servers as Record<string, unknown>)[PLUGIN_SERVER];
  if (existing !== undefined && !isOurs(existing)) throw new Error(`${target} already has a server "${PLUGIN_SERVER}" that zot-host did not write; it is left as it is (remove that entry yourself)`);
  const next = { ...config, mcpServers: { ...servers, [PLUGIN_SERVER]: entry } };
  await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR });
  await replaceFile(target, `${JSON.stringify(next, null, 2)}\n`, st ? st.mode & 0o777 : 0o600);
  return { replaced: existing !== undefined };
}
