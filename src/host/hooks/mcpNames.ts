/**
 * Which tool names an agent gives the tools of zot's own MCP servers: the
 * hook lets exactly those through (the MCP path intercepts them), and guards
 * every other name, however like zot's.
 */
import { PLUGIN_MCP_PREFIXES } from '../harnessNames.js';

/** What the name check needs of a host: whether a server of zot serves a tool, and the extensions with a server of their own. */
export interface McpToolNames {
  /**
   * Whether zot's MCP server serves a tool under this name (its MCP-safe
   * name); with `extension`, whether that extension's own server (the
   * editor's `zot: <extension>`) does.
   */
  servesOverMcp(name: string, extension?: string): boolean;
  /** The extensions that may have an MCP server of their own in the editor. */
  readonly extensionNames?: readonly string[];
}

/**
 * The names VS Code's agent knows zot's MCP servers by, as it makes its tool
 * names of them: the server's announced title (src/mcp/shared/tools.ts
 * serverIdentity), else its label (src/vscode/mcp/mcpProvider.ts), which it
 * lower-cases: "zot extensions" for the one server of every extension,
 * "zot: <extension>" for an extension's own.
 */
const ONE_SERVER = 'zot extensions';
const serverOf = (extension: string): string => `zot: ${extension}`;

/**
 * Claude Code's names for the tools of zot's MCP server: `mcp__<server>__<tool>`,
 * the server being the name the user gave it in Claude Code's MCP settings.
 * Only `zot` counts (`claude mcp add zot -- zot-host mcp`): under any other
 * name the agent's call goes through the guards on the hook path too.
 */
export const CLAUDE_MCP_PREFIX = 'mcp__zot__';

/**
 * The name VS Code's agent gives tool `tool` of the MCP server named `server`
 * (McpPrefixGenerator and McpTool in VS Code's mcpServer.ts): `mcp_`, the
 * server's name lower-cased with each run of characters other than
 * `a-z0-9_.-` made `_` and cut to 13 characters, `_`, the tool's name; every
 * `.` made `_`, and the whole cut to 64 characters. A second server whose
 * name cuts the same gets a number before the `_` (`mcp_zot_extensio2_`):
 * that name is not zot's here, so its tools go through the guards on the hook
 * path too.
 */
export function vsCodeToolName(server: string, tool: string): string {
  return `mcp_${server.toLowerCase().replace(/[^a-z0-9_.-]+/g, '_').slice(0, 13)}_${tool}`.replaceAll('.', '_').slice(0, 64);
}

/**
 * Whether the agent names a tool of zot's own MCP servers: exactly the name
 * VS Code gives a tool of the one server, or of an extension's own server that
 * this extension holds, Claude Code's (and Codex's) `mcp__zot__<tool>`, or a
 * harness's name for the agent plugin's server (PLUGIN_MCP_PREFIXES); and a tool that
 * server serves. A name only like these (`mcp__zotero__…`,
 * `mcp_github_zot_…`, a cut VS Code did not make) is not zot's.
 */
export function zotMcpTool(name: string, host: McpToolNames): boolean {
  for (const prefix of [CLAUDE_MCP_PREFIX, ...PLUGIN_MCP_PREFIXES]) {
    if (!name.startsWith(prefix)) continue;
    const tool = name.slice(prefix.length);
    return tool !== '' && host.servesOverMcp(tool);
  }
  const servers: [string, string | undefined][] = [[ONE_SERVER, undefined], ...(host.extensionNames ?? []).map((e): [string, string] => [serverOf(e), e])];
  for (const [server, extension] of servers) {
    const prefix = vsCodeToolName(server, '');
    if (!name.startsWith(prefix)) continue;
    const tool = name.slice(prefix.length);
    if (tool !== '' && vsCodeToolName(server, tool) === name && host.servesOverMcp(tool, extension)) return true;
  }
  return false;
}
