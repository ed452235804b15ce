/**
 * Zot: Create Agent Plugin: zot as an agent plugin (src/host/hooks/plugin.ts),
 * in the format the user picks. Claude's goes to
 * ~/.copilot/installed-plugins/zot/zot-extensions, where VS Code finds
 * plugins with no setting (Copilot CLI keeps the plugins it installs there
 * too, but loads only those it installed itself); Copilot CLI's own goes to
 * <zot home>/copilot-plugin/zot-extensions, for `copilot plugin install`;
 * Codex's (a marketplace) to <zot home>/codex-marketplace. Like
 * the hook file for every workspace, it is the user's: it names the user's
 * own zot home (never one a workspace set) and zot.hooks.failClosed, and runs
 * a copy of this installation's zot-host with VS Code's own runtime.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PLUGIN_FORMATS, PLUGIN_NAME, type PluginFormat, writePlugin, type WrittenPlugin } from '../../host/hooks/index.js';
import { hooksFailClosed, userZotHome } from '../core/settings.js';
import { revealFolder } from '../commands/folders.js';
import type { UiTrace } from '../ui/trace.js';
import { t } from '../l10n.js';

/** The marketplace folder the plugin goes under in ~/.copilot/installed-plugins. */
const MARKETPLACE = 'zot';

/** Where the command writes the plugin of a format. */
export function agentPluginDir(format: PluginFormat = 'claude'): string {
  if (format === 'copilot') return path.join(userZotHome(), 'copilot-plugin', PLUGIN_NAME);
  if (format === 'codex') return path.join(userZotHome(), 'codex-marketplace');
  if (format === 'agent-plugins') return path.join(userZotHome(), 'agent-plugin', PLUGIN_NAME);
  return path.join(os.homedir(), '.copilot', 'installed-plugins', MARKETPLACE, PLUGIN_NAME);
}

/** Which format to write, asked. */
async function pickFormat(): Promise<PluginFormat | undefined> {
  const items: (vscode.QuickPickItem & { format: PluginFormat })[] = [
    { label: t('Claude plugin format'), detail: t('Read by VS Code (written where it loads plugins with no setting), Claude Code and Copilot CLI'), format: 'claude' },
    { label: t('Copilot CLI\'s own plugin format'), detail: t('Its hooks in Copilot CLI\'s shape; install it with copilot plugin install'), format: 'copilot' },
    { label: t('Agent Plugins 1.0'), detail: t('The open standard: plugin.json, mcp.json, Copilot CLI\'s hooks in com.github.copilot/; install it with copilot plugin install'), format: 'agent-plugins' },
    { label: t('Codex plugin marketplace'), detail: t('The plugin in Claude\'s format, in a marketplace; add it with codex plugin marketplace add'), format: 'codex' },
  ];
  return (await vscode.window.showQuickPick(items, { title: t('Create Agent Plugin: in which format?') }))?.format;
}

export interface AgentPluginDeps {
  /** The installed extension's folder: its dist/cli.js, dist/hook.js, dist/mcp.js and media/panel/ are copied. */
  extensionPath: string;
  /** The windows folder the agent hooks use (AgentHooks.windowsDir). */
  windows: string;
  log(line: string): void;
  trace: UiTrace;
}

/**
 * Writes the plugin in `format` (asked when not given) into `where` (an
 * absolute folder) or agentPluginDir(), and says where.
 */
export async function createAgentPlugin(d: AgentPluginDeps, where?: unknown, format?: unknown): Promise<WrittenPlugin | undefined> {
  const chosen = (PLUGIN_FORMATS as readonly unknown[]).includes(format) ? (format as PluginFormat) : await pickFormat();
  if (!chosen) return undefined;
  const target = typeof where === 'string' && path.isAbsolute(where) ? where : agentPluginDir(chosen);
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
      format: chosen,
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
  const said = chosen === 'copilot' || chosen === 'agent-plugins'
    ? t('zot\'s agent plugin for Copilot CLI (its MCP server and agent hooks) is in {0}; install it with copilot plugin install.', dir)
    : chosen === 'codex'
      ? t('zot\'s agent plugin for Codex (its MCP server and agent hooks) is in the marketplace {0}; add it with codex plugin marketplace add, then codex plugin add zot-extensions@zot.', dir)
      : t('zot\'s agent plugin (its MCP server and agent hooks) is in {0}, where VS Code loads it; Claude Code loads it with claude --plugin-dir.', dir);
  void vscode.window.showInformationMessage(said, open)
    .then((c) => (c === open ? revealFolder(dir, d.trace, t('zot\'s agent plugin: {0}', dir)) : undefined));
  return written;
}
