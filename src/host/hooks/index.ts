/**
 * The hooks face of the host: a hook's input read, zot's events and
 * intercepts for it, the answer, the editor windows' contract with the
 * hook verb, the hook's command line, and the agent plugin that carries it.
 * It loads no process code: a hook that an editor window answers starts
 * nothing.
 */
export * from './agentHooks.js';
export * from './windows.js';
export * from './hookCommand.js';
export * from './plugin.js';
export { writeMcpEntry, zotMcpEntry } from './mcpConfig.js';
export { replaceFile } from './replaceFile.js';
export { zotMcpTool } from './mcpNames.js';
export { GUARD_HOOKS, GUARD_TOOL, GUARD_TOOL_ENV, type GuardHook, PLUGIN_MCP_PREFIXES } from '../harnessNames.js';
