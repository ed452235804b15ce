/**
 * zot's agent plugin in the Agent Plugins 1.0 format (agent-plugins.org,
 * spec 1.0.0): a root `plugin.json` and `mcp.json`, each naming its schema,
 * and a client's own files in a top-level folder named for the client
 * (Copilot CLI's hooks in `com.github.copilot/hooks/hooks.json`, the only
 * client of the standard that runs hooks). The standard's `mcp.json` starts
 * a server by a bare program name or a program inside the plugin (`./…`),
 * never an absolute path, and expands `${PLUGIN_ROOT}` and `${PLUGIN_DATA}`
 * only in `args`, `env` and `cwd`: so the plugin holds a launcher that runs
 * the runtime that wrote it, and its server runs the plugin's own copy of
 * zot-host wherever the client put the plugin (Copilot CLI copies it).
 */
import * as path from 'node:path';
import { HOST_VERSION } from '../version.js';
import { PLUGIN_NAME, PLUGIN_SERVER } from '../harnessNames.js';
import { shellWord } from './hookCommand.js';

/** The schema identifiers of Agent Plugins 1.0.0 (spec §5.2, §7.2.1). */
const AGENT_PLUGINS_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';
const AGENT_PLUGINS_MCP_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json';
/** Copilot CLI's extension namespace: its folder holds the plugin's hooks. */
export const COPILOT_NAMESPACE = 'com.github.copilot';
/** Names the standard keeps for the client (spec §9.2): a server's env must not set them. */
const RESERVED_ENV = ['PLUGIN_ROOT', 'PLUGIN_DATA'];

/** The launcher, relative to the plugin's root: a shell script, or a cmd script on Windows. */
export const launcherFile = (platform: NodeJS.Platform = process.platform): readonly string[] => ['bin', platform === 'win32' ? 'zot-node.cmd' : 'zot-node'];

/** The launcher's text: it runs `runtime` with the arguments it was given. */
export function launcherText(runtime: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `@${shellWord(runtime, platform)} %*\r\n` : `#!/bin/sh\nexec ${shellWord(runtime, platform)} "$@"\n`;
}

/** The manifest: the closed set of fields the standard allows. */
export const agentPluginsManifest = (description: string): Record<string, string> => ({ $schema: AGENT_PLUGINS_SCHEMA, name: PLUGIN_NAME, version: HOST_VERSION, description });

/**
 * The MCP file: the server `zot` as a typed stdio entry, started by the
 * launcher with the plugin's own zot-host (`cli`, relative to the plugin's
 * root) under `${PLUGIN_ROOT}`; it runs in the client's data folder for the
 * plugin (`${PLUGIN_DATA}`), not in the plugin, which a client may replace.
 */
export function agentPluginsMcp(cli: string, args: readonly string[], env: Record<string, string>, platform: NodeJS.Platform = process.platform): unknown {
  const reserved = Object.keys(env).find((k) => RESERVED_ENV.includes(k.toUpperCase()));
  if (reserved !== undefined) throw new Error(`"${reserved}" is set by the client of an Agent Plugins package; the plugin's server cannot be given it`);
  return {
    $schema: AGENT_PLUGINS_MCP_SCHEMA,
    mcpServers: {
      [PLUGIN_SERVER]: {
        type: 'stdio',
        command: `./${launcherFile(platform).join('/')}`,
        args: [`\${PLUGIN_ROOT}/${cli.split(path.sep).join('/')}`, ...args],
        env,
        cwd: '${PLUGIN_DATA}',
      },
    },
  };
}
