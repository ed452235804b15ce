/**
 * Zot: Create Agent Plugin: zot as an agent plugin (src/host/hooks/plugin.ts)
 * in ~/.copilot/installed-plugins/zot/zot-extensions, where VS Code finds
 * plugins with no setting (Copilot CLI keeps the plugins it installs there
 * too, but loads only those it installed itself). Like
 * the hook file for every workspace, it is the user's: it names the user's
 * own zot home (never one a workspace set) and zot.hooks.failClosed, and runs
 * a copy of this installation's zot-host with VS Code's own runtime.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PLUGIN_NAME, writePlugin, type WrittenPlugin } from '../../host/hooks/index.js';
import { hooksFailClosed, userZotHome } from '../activation/settings.js';
import { revealFolder } from '../commands/folders.js';
import type { UiTrace } from '../ui/trace.js';
import { t } from '../l10n.js';

/** The marketplace folder the plugin goes under in ~/.copilot/installed-plugins. */
const MARKETPLACE = 'zot';

/** Where the command writes the plugin. */
export function agentPluginDir(): string {
  return path.join(os.homedir(), '.copilot', 'installed-plugins', MARKETPLACE, PLUGIN_NAME);
}

export interface AgentPluginDeps {
  /** The installed extension's folder: its dist/cli.js, dist/mcp.js and media/panel/ are copied. */
  extensionPath: string;
  /** The windows folder the agent hooks use (AgentHooks.windowsDir). */
  windows: string;
  log(line: string): void;
  trace: UiTrace;
}

/** Writes the plugin into `where` (an absolute folder) or agentPluginDir(), and says where. */
export async function createAgentPlugin(d: AgentPluginDeps, where?: unknown): Promise<WrittenPlugin | undefined> {
  const target = typeof where === 'string' && path.isAbsolute(where) ? where : agentPluginDir();
  let written: WrittenPlugin;
  try {
    written = await writePlugin(target, {
      runtime: process.execPath,
      // VS Code's runtime runs zot-host as Node only with this.
      env: { ELECTRON_RUN_AS_NODE: '1' },
      source: d.extensionPath,
      zotHome: userZotHome(),
      windows: d.windows,
      ...(hooksFailClosed() && { failClosed: true }),
    });
  } catch (e) {
    d.log(`the agent plugin was not written: ${(e as Error).message}`);
    void vscode.window.showErrorMessage(t('The agent plugin was not written: {0}', (e as Error).message));
    return undefined;
  }
  const { dir } = written;
  d.log(`agent plugin written: ${dir}`);
  d.trace.record('plugin-written', { dir });
  const open = t('Open Folder');
  void vscode.window.showInformationMessage(t('zot\'s agent plugin (its MCP server and agent hooks) is in {0}, where VS Code loads it; Claude Code loads it with claude --plugin-dir.', dir), open)
    .then((c) => (c === open ? revealFolder(dir, d.trace, t('zot\'s agent plugin: {0}', dir)) : undefined));
  return written;
}
