/**
 * The names harnesses give the tools of zot's agent plugin's MCP server
 * (src/host/hooks/plugin.ts): the hook lets them through (the MCP path
 * guards them) and host tool calls never reach them (tervaContext.ts isZotTool).
 */

/** The agent plugin's name and its MCP server's. */
export const PLUGIN_NAME = 'zot-extensions';
export const PLUGIN_SERVER = 'zot';

/**
 * Before the tool's MCP name: Claude Code `mcp__plugin_<plugin>_<server>__`,
 * Copilot CLI `<server>-`; Codex, like Claude Code for a server it was given
 * by hand, `mcp__<server>__` (hooks/mcpNames.ts CLAUDE_MCP_PREFIX). A server
 * of another name that only starts like these (`zot-x` with a tool `y`, where
 * zot serves `x-y`) would be taken for zot's: no harness names its own tools so.
 */
export const CLAUDE_PLUGIN_MCP_PREFIX = `mcp__plugin_${PLUGIN_NAME}_${PLUGIN_SERVER}__`;
export const PLUGIN_MCP_PREFIXES = [CLAUDE_PLUGIN_MCP_PREFIX, `${PLUGIN_SERVER}-`] as const;

/**
 * The packages `zot-host plugin` writes (hooks/plugin.ts): Claude's plugin
 * format (read by VS Code's Agent Plugins, Claude Code and Copilot CLI),
 * Copilot CLI's own (a root plugin.json naming its hooks.json, in Copilot's
 * hook shape, and .mcp.json), Codex's (a marketplace holding the plugin
 * in Claude's format), and the Agent Plugins 1.0 standard's (hooks/agentPlugins.ts).
 */
export const PLUGIN_FORMATS = ['claude', 'copilot', 'codex', 'agent-plugins'] as const;
export type PluginFormat = (typeof PLUGIN_FORMATS)[number];

/**
 * How the plugin's guards are hooked in: a command (`zot-host hook`, a
 * process per call: every harness), or an `mcp_tool` hook calling the guard
 * tool of the plugin's own server (Claude Code, Codex: no process per call).
 */
export const GUARD_HOOKS = ['command', 'mcp'] as const;
export type GuardHook = (typeof GUARD_HOOKS)[number];
/** The guard tool of zot's MCP server, and the environment variable that has the server serve it (src/mcp/hooks/guardTool.ts). */
export const GUARD_TOOL = 'zot_agent_hook';
export const GUARD_TOOL_ENV = 'ZOT_MCP_HOOK_GUARD';
