/**
 * `zot-host plugin <dir>`: zot as an agent plugin for VS Code, Claude Code
 * and Copilot CLI (src/host/hooks/plugin.ts), run by the program running this
 * zot-host and copied from this installation, and how to enable it in each.
 */
import * as path from 'node:path';
import { CODEX_MARKETPLACE, defaultZotHome, PLUGIN_NAME, writeMcpEntry, writePlugin, zotMcpEntry } from '../host/index.js';
import type { Parsed } from './args.js';
import { commandWord } from './init.js';
import { err, out } from './output.js';

export async function plugin(p: Parsed): Promise<number> {
  const target = p.positional[0]!;
  const zotHome = p.host.zotHome ?? defaultZotHome();
  let written;
  // VS Code's runtime runs zot-host as Node only with this; so does the plugin.
  const env: Record<string, string> = process.versions.electron !== undefined ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  try {
    written = await writePlugin(target, {
      runtime: process.execPath,
      env,
      // This file is <installation>/dist/cli.js.
      source: path.dirname(__dirname),
      zotHome,
      ...(p.failClosed && { failClosed: true }),
      ...(p.format && { format: p.format }),
      ...(p.guardHook && { guardHook: p.guardHook }),
    });
  } catch (e) {
    err(`zot-host plugin: ${(e as Error).message}`);
    return 1;
  }
  const dir = written.dir;
  const word = commandWord(dir, process.platform);
  const as = { claude: '', copilot: ' (Copilot CLI\'s format)', codex: ' (a Codex plugin marketplace)', 'agent-plugins': ' (Agent Plugins 1.0)' }[written.format];
  out(`wrote the agent plugin zot-extensions${as} in ${dir}:`);
  for (const file of [...(written.marketplace ? [written.marketplace] : []), written.manifest, written.mcp, written.hooks, ...(written.launcher ? [written.launcher] : []), written.readme]) out(`  ${path.relative(dir, file)}`);
  const root = path.relative(dir, path.dirname(path.dirname(written.cli)));
  out(`  ${root ? `${root}/` : ''}dist/, ${root ? `${root}/` : ''}media/panel/ (its own copy of zot-host)`);
  out(`its MCP server "zot" and its hooks run the global extensions of ${zotHome}${p.failClosed ? '; the hooks fail closed' : ''}`);
  if (p.mcpConfig !== undefined) {
    // The plugin's own zot-host, so the entry keeps working as the plugin does.
    try {
      const { replaced } = await writeMcpEntry(p.mcpConfig, zotMcpEntry(process.execPath, written.cli, zotHome, env));
      out(`${replaced ? 'replaced' : 'added'} the MCP server "zot" in ${p.mcpConfig}, run by the plugin's zot-host`);
    } catch (e) {
      err(`zot-host plugin: the plugin is written, the MCP config is not: ${(e as Error).message}`);
      return 1;
    }
  }
  out('\nto enable it:');
  if (written.format === 'copilot' || written.format === 'agent-plugins') {
    out(`  Copilot CLI   copilot plugin install ${word}`);
    if (written.format === 'agent-plugins') out('  other clients of Agent Plugins 1.0 read its plugin.json and mcp.json (its hooks are Copilot CLI\'s)');
    return 0;
  }
  if (written.format === 'codex') {
    out(`  Codex         codex plugin marketplace add ${word}`);
    out(`                codex plugin add ${PLUGIN_NAME}@${CODEX_MARKETPLACE}`);
    return 0;
  }
  out(`  VS Code       in your user settings: "chat.pluginLocations": { ${JSON.stringify(dir)}: true }`);
  out(`                or write it into ~/.copilot/installed-plugins/<marketplace>/<name>/ (read with no setting)`);
  out(`  Claude Code   claude --plugin-dir ${word}`);
  out(`  Copilot CLI   copilot plugin install ${word}`);
  return 0;
}
