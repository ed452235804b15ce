/**
 * Agent mode's two ways in: the MCP server definitions (the server runs in
 * this window, started on first use) and the agent hooks that put zot guards
 * in front of every tool of the agent, answered by this window while installed.
 */
import * as vscode from 'vscode';
import type { HostManager } from '../core/hostManager.js';
import { mcpServers } from '../core/settings.js';
import { MCP_PROVIDER_ID, ZotMcpProvider } from '../mcp/mcpProvider.js';
import { AgentHooks } from '../hooks/agentHooks.js';
import type { ExtensionsTree } from '../views/tree.js';
import type { WindowParts } from './hostFactory.js';

export function wireAgentMode(context: vscode.ExtensionContext, mgr: HostManager, p: WindowParts, tree: ExtensionsTree): ZotMcpProvider {
  const log = (line: string): void => p.logs.hostLog(line);
  const mcp = new ZotMcpProvider({
    extensionPath: context.extensionPath,
    source: mgr,
    version: () => String(context.extension.packageJSON.version),
    servers: mcpServers,
    log,
    keepSecret: (token) => {
      p.secrets.add(token);
      mgr.keepSecret(token);
    },
  });
  const hooks = new AgentHooks({ context, manager: mgr, mcp, log, trace: p.trace });
  tree.showGuards(() => hooks.active, hooks.onDidChange);
  context.subscriptions.push(mcp, vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp), hooks,
    vscode.commands.registerCommand('zot.installAgentHooks', (scope?: unknown) => hooks.install(scope)),
    vscode.commands.registerCommand('zot.removeAgentHooks', () => hooks.remove()),
    vscode.commands.registerCommand('zot.createAgentPlugin', (where?: unknown, format?: unknown) => hooks.createPlugin(where, format)));
  void hooks.start().catch((err: unknown) => p.logs.hostLog(`agent hooks: ${(err as Error).message}`, 'error'));
  return mcp;
}
