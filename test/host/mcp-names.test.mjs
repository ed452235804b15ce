// Which tool names are zot's own MCP tools (src/host/hooks/mcpNames.ts), under
// every name a harness gives zot's servers: the hook lets exactly those
// through, since the MCP path guards them, and guards every other name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib } from '../helpers.mjs';

/** A host that serves `delete_items` on its one server, and `own_tool` on the server of extension `ref`. */
const host = {
  servesOverMcp: (/** @type {string} */ name, /** @type {string | undefined} */ extension) => (extension === undefined ? ['delete_items', 'x-y'].includes(name) : extension === 'ref' && name === 'own_tool'),
  extensionNames: ['ref'],
};

test('each harness\'s name for a tool of zot\'s server is zot\'s: VS Code, Claude Code and Codex for a server named zot, the agent plugin\'s server in Claude Code and Copilot CLI', () => {
  assert.deepEqual([...lib.PLUGIN_MCP_PREFIXES], ['mcp__plugin_zot-extensions_zot__', 'zot-']);
  for (const name of ['mcp_zot_extension_delete_items', 'mcp_zot_ref_own_tool', 'mcp__zot__delete_items', 'mcp__plugin_zot-extensions_zot__delete_items', 'zot-delete_items', 'zot-x-y']) {
    assert.equal(lib.zotMcpTool(name, host), true, name);
  }
});

test('a name only like those, or a tool zot does not serve, is not zot\'s', () => {
  for (const name of [
    'delete_items', 'Bash', 'bash',
    'mcp__plugin_zot-extensions_zot__', 'mcp__plugin_zot-extensions_zot__other', 'mcp__plugin_zot-extensions_zotero__delete_items',
    'mcp__plugin_zot_extensions_zot__delete_items', 'mcp__plugin_other_zot__delete_items', 'mcp__plugin_zot-extensions__delete_items',
    'zot-', 'zot-other', 'zot_delete_items', 'zotero-delete_items', 'Zot-delete_items', 'ZOT-delete_items', 'xzot-delete_items',
    'mcp__zot__', 'mcp__zotero__delete_items', 'mcp_zot_ref_delete_items',
  ]) {
    assert.equal(lib.zotMcpTool(name, host), false, name);
  }
});

test('isZotTool (host tool calls never reach a zot tool) knows the agent plugin\'s names too, in any case', () => {
  const registry = { tool: (/** @type {string} */ n) => (n === 'ledger_own' ? {} : undefined) };
  for (const name of ['ledger_own', 'mcp_zot_extension_ledger_own', 'mcp__zot__x', 'mcp__plugin_zot-extensions_zot__x', 'MCP__PLUGIN_ZOT-EXTENSIONS_ZOT__x', 'zot-x', 'ZOT-x']) {
    assert.equal(lib.isZotTool(name, registry), true, name);
  }
  for (const name of ['bash', 'grep', 'mcp_github_x', 'mcp__plugin_other_zot__x', 'zotero-x']) assert.equal(lib.isZotTool(name, registry), false, name);
});
