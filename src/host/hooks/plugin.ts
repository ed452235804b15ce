/**
 * zot as an agent plugin, in the Claude plugin format that VS Code's Agent
 * Plugins, Claude Code and Copilot CLI all read:
 *
 *   .claude-plugin/plugin.json   name zot-extensions, the host's version
 *   .mcp.json                    the MCP server `zot`: `zot-host mcp`
 *   hooks/hooks.json             PreToolUse and UserPromptSubmit: `zot-host hook`
 *   dist/cli.js, dist/mcp.js     the plugin's own copy of zot-host (dist/hook.js: its hook verb alone)
 *   media/panel/                 the panel page the MCP bundle serves (../media/panel beside dist/)
 *   README.md                    what it is, and how to write it again
 *
 * Every path in it is absolute: no harness has to expand a variable, and the
 * plugin keeps working after the installation it was copied from is updated
 * or removed. Like the hook file, it runs in every project without asking:
 * it names the user's own zot home, and its server and hooks never load a
 * project's own extensions (`--no-project`).
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { HOST_VERSION } from '../version.js';
import { hookCommandLine, INSTALLED_HOOKS, type InstalledHook, shellWord } from './hookCommand.js';
import { HOOK_TIMEOUT_S, WINDOWS_VAR } from './windows.js';
import { CLAUDE_PLUGIN_MCP_PREFIX, GUARD_TOOL, GUARD_TOOL_ENV, type GuardHook, PLUGIN_NAME, type PluginFormat, PLUGIN_SERVER } from '../harnessNames.js';
import { agentPluginsManifest, agentPluginsMcp, COPILOT_NAMESPACE, launcherFile, launcherText } from './agentPlugins.js';
import { forgetPlugin, MARKER, markerText, newPluginId, ownPlugin, type PluginId, PRIVATE_DIR, recordPlugin } from './pluginOwner.js';

/** The plugin's name (a folder is known to be ours by its marker: pluginOwner.ts), and its MCP server's: the hook knows the server's tools by them. */
export { PLUGIN_FORMATS, PLUGIN_NAME, type PluginFormat, PLUGIN_SERVER } from '../harnessNames.js';
const DESCRIPTION = 'zot extensions for agents: their tools and commands through the MCP server "zot", and zot guards in front of every tool call and prompt (agent hooks).';

/** What the plugin is made of, relative to its folder (and, for the copied parts, to the installation it comes from). */
// Codex takes plugins from a marketplace: the folder is one (its catalog in Claude's marketplace.json), the plugin, in Claude's format, in a folder of it.
// Agent Plugins 1.0: a root plugin.json and mcp.json, a client's own files in a folder named for it (Copilot CLI reads hooks/hooks.json in com.github.copilot/).
const LAYOUT: Record<PluginFormat, { root: readonly string[]; manifest: readonly string[]; mcp: string; hooks: readonly string[] }> = {
  claude: { root: [], manifest: ['.claude-plugin', 'plugin.json'], mcp: '.mcp.json', hooks: ['hooks', 'hooks.json'] },
  copilot: { root: [], manifest: ['plugin.json'], mcp: '.mcp.json', hooks: ['hooks.json'] },
  codex: { root: [PLUGIN_NAME], manifest: ['.claude-plugin', 'plugin.json'], mcp: '.mcp.json', hooks: ['hooks', 'hooks.json'] },
  'agent-plugins': { root: [], manifest: ['plugin.json'], mcp: 'mcp.json', hooks: [COPILOT_NAMESPACE, 'hooks', 'hooks.json'] },
};
/** The Codex marketplace's catalog, and its name (`codex plugin add zot-extensions@zot`). */
const MARKETPLACE_FILE = ['.claude-plugin', 'marketplace.json'] as const;
export const CODEX_MARKETPLACE = 'zot';
const COPIED_FILES = [['dist', 'cli.js'], ['dist', 'hook.js'], ['dist', 'mcp.js']] as const;
const PANEL = ['media', 'panel'] as const;
/** What a folder must hold to be copied into a plugin, as the refusal names it. */
const INSTALLATION = `${[...COPIED_FILES, PANEL].map((parts) => parts.join('/')).join(', ')}/`;

export interface PluginInputs {
  /** The program that runs zot-host: Node, or VS Code's own runtime (with ELECTRON_RUN_AS_NODE=1 in `env`). */
  runtime: string;
  /** Environment the runtime needs, given to the MCP server and the hooks. */
  env?: Record<string, string>;
  /** The installation copied into the plugin: the folder that holds dist/cli.js, dist/hook.js, dist/mcp.js and media/panel/. */
  source: string;
  /** The user's own zot home, whose global extensions the plugin runs. */
  zotHome: string;
  /** Where editor windows that answer hooks list themselves (src/host/hooks/windows.ts), if any. */
  windows?: string;
  /** The hooks refuse a call or prompt whose guards could not all run. */
  failClosed?: boolean;
  /** The package's format; default claude. */
  format?: PluginFormat;
  /** How the guards are hooked in (formats claude and codex); default command for claude (VS Code and Copilot CLI read it too), mcp for codex. */
  guardHook?: GuardHook;
}

/** The guard hook a plugin of `format` gets; mcp only where Claude Code or Codex alone reads the hooks. */
export function guardHookOf(format: PluginFormat, asked: GuardHook | undefined): GuardHook {
  if (asked === 'mcp' && format !== 'claude' && format !== 'codex') throw new Error(`mcp_tool hooks are Claude Code's and Codex's: format ${format} takes only command hooks`);
  return asked ?? (format === 'codex' ? 'mcp' : 'command');
}

/** The name an mcp_tool hook gives the plugin's server: Claude Code names a plugin's server plugin:<plugin>:<server>; Codex by its own name. */
const HOOK_SERVER: Partial<Record<PluginFormat, string>> = { claude: `plugin:${PLUGIN_NAME}:${PLUGIN_SERVER}`, codex: PLUGIN_SERVER };

/**
 * PreToolUse's matcher: every tool (`*`), but for Claude Code's `mcp_tool`
 * guard (format claude with guard mcp, which only Claude Code runs) every
 * tool but the plugin's own server's: that server guards them itself, so a
 * hook there asks the guards nothing and costs each call Claude Code's
 * dispatch of a hook (tens of ms). Claude Code reads a matcher of other than
 * word characters and `|` as a JavaScript regular expression. Codex keeps
 * `*`: it read such a matcher as guarding nothing, and a guard's matcher
 * that a harness reads otherwise must fail closed, never open.
 */
function preToolUseMatcher(format: PluginFormat, guard: GuardHook): string {
  if (format !== 'claude' || guard !== 'mcp') return '*';
  return `^(?!${CLAUDE_PLUGIN_MCP_PREFIX.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}).*`;
}

/** The hook input's fields the guard tool reads, by interpolation (`${tool_input}` is its JSON text). */
const HOOK_FIELDS: Record<InstalledHook, readonly string[]> = {
  PreToolUse: ['hook_event_name', 'tool_name', 'tool_input', 'tool_use_id', 'session_id', 'cwd'],
  UserPromptSubmit: ['hook_event_name', 'prompt', 'session_id', 'cwd'],
};

/** The plugin written: its folder and its files. */
export interface WrittenPlugin {
  dir: string;
  format: PluginFormat;
  manifest: string;
  mcp: string;
  hooks: string;
  readme: string;
  /** The plugin's copy of zot-host. */
  cli: string;
  /** Its hook verb alone, which the command hooks run. */
  hook: string;
  /** The Codex marketplace's catalog (format codex). */
  marketplace?: string;
  /** The program mcp.json starts, which runs the runtime (format agent-plugins: its command must be in the plugin). */
  launcher?: string;
}

/** The files of a plugin of `format` whose folder is `dir`. */
export function pluginFiles(dir: string, format: PluginFormat = 'claude'): WrittenPlugin {
  const root = path.join(dir, ...LAYOUT[format].root);
  return {
    dir,
    format,
    manifest: path.join(root, ...LAYOUT[format].manifest),
    mcp: path.join(root, LAYOUT[format].mcp),
    hooks: path.join(root, ...LAYOUT[format].hooks),
    readme: path.join(dir, 'README.md'),
    cli: path.join(root, 'dist', 'cli.js'),
    hook: path.join(root, 'dist', 'hook.js'),
    ...(format === 'codex' && { marketplace: path.join(dir, ...MARKETPLACE_FILE) }),
    ...(format === 'agent-plugins' && { launcher: path.join(root, ...launcherFile()) }),
  };
}

/**
 * Writes the plugin into `target`: made whole in a folder beside it, then
 * renamed into place, so an agent never reads half a plugin. What is at
 * `target` already must be nothing, an empty folder or a plugin zot-host
 * wrote and nobody added to or changed since (pluginOwner.ts), which is
 * replaced; anything else is left as it is and refused, a symbolic link above
 * all (never written through). Folders it creates on the way are private
 * (0700), whatever the umask.
 */
export async function writePlugin(target: string, inputs: PluginInputs): Promise<WrittenPlugin> {
  const dir = path.resolve(target);
  const source = path.resolve(inputs.source);
  for (const parts of COPIED_FILES) {
    const file = path.join(source, ...parts);
    if (!(await fsp.stat(file).catch(() => undefined))?.isFile()) throw new Error(`${file} is missing: ${source} is not an installation of zot-host (${INSTALLATION})`);
  }
  if (!(await fsp.stat(path.join(source, ...PANEL)).catch(() => undefined))?.isDirectory()) throw new Error(`${path.join(source, ...PANEL)} is missing: ${source} is not an installation of zot-host (${INSTALLATION})`);
  // The plugin's own folder may be the source (a plugin written again by its own zot-host: it is read before it is replaced), never a folder it copies.
  for (const copied of [path.join(source, 'dist'), path.join(source, ...PANEL)]) {
    if (isInside(dir, copied)) throw new Error(`${dir} is inside ${copied}, which the plugin copies: name a folder elsewhere`);
  }
  const replacing = await existing(dir);
  const parent = path.dirname(dir);
  await fsp.mkdir(parent, { recursive: true, mode: PRIVATE_DIR });
  const tag = randomBytes(6).toString('hex');
  const temp = path.join(parent, `.${path.basename(dir)}.${tag}.tmp`);
  await fsp.mkdir(temp, { mode: PRIVATE_DIR });
  const id = newPluginId(inputs.zotHome);
  let recorded = false;
  try {
    await fill(temp, dir, source, inputs);
    await fsp.writeFile(path.join(temp, MARKER), markerText(id), { flag: 'wx', mode: 0o600 });
    await recordPlugin(id, dir, temp);
    recorded = true;
    if (!replacing) {
      await fsp.rename(temp, dir);
    } else {
      // Moved aside rather than removed first: when the new one cannot take its place, the old one goes back.
      const old = path.join(parent, `.${path.basename(dir)}.${tag}.old`);
      await fsp.rename(dir, old);
      // Checked again once moved aside: what was added in the meantime is not deleted with it.
      if (!(await stillReplaceable(old, replacing))) {
        await fsp.rename(old, dir);
        throw new Error(`${dir} changed while the plugin was being written; it is left as it is`);
      }
      try {
        await fsp.rename(temp, dir);
      } catch (e) {
        await fsp.rename(old, dir).catch(() => undefined);
        throw e;
      }
      await fsp.rm(old, { recursive: true, force: true });
      if (typeof replacing === 'object') await forgetPlugin(replacing).catch(() => undefined);
    }
  } catch (e) {
    await fsp.rm(temp, { recursive: true, force: true });
    if (recorded) await forgetPlugin(id).catch(() => undefined);
    throw e;
  }
  return pluginFiles(dir, inputs.format);
}

/** Whether `dir` is a folder (not a link to one) holding a plugin zot-host wrote, as it wrote it. */
export async function isOurPlugin(dir: string): Promise<boolean> {
  const st = await fsp.lstat(dir).catch(() => undefined);
  return st?.isDirectory() === true && 'ours' in (await ownPlugin(dir));
}

/** Whether the folder moved aside still holds only what `existing` found replaceable: nothing, or the same plugin of ours as zot-host wrote it. */
async function stillReplaceable(old: string, found: PluginId | true): Promise<boolean> {
  if (found === true) return (await fsp.readdir(old)).length === 0;
  const own = await ownPlugin(old);
  return 'ours' in own && own.ours.id === found.id;
}

/** What is at `dir` that the new plugin replaces (a plugin of ours: its identity); throws for what it must not replace. */
async function existing(dir: string): Promise<PluginId | boolean> {
  const st = await fsp.lstat(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
  if (!st) return false;
  if (st.isSymbolicLink()) throw new Error(`${dir} is a symbolic link; the plugin is not written through it (remove the link, or name another folder)`);
  if (!st.isDirectory()) throw new Error(`${dir} exists and is not a folder; it is left as it is (name another folder)`);
  if ((await fsp.readdir(dir)).length === 0) return true;
  const own = await ownPlugin(dir);
  if ('ours' in own) return own.ours;
  throw new Error(`${dir} is not a plugin that zot-host wrote as it is now (${own.why}); it is left as it is (name a new or empty folder, or remove it yourself)`);
}

/** Writes the plugin's files into `temp`, naming the paths they will have in `dir`. */
async function fill(temp: string, dir: string, source: string, i: PluginInputs): Promise<void> {
  const format = i.format ?? 'claude';
  const guard = guardHookOf(format, i.guardHook);
  const final = pluginFiles(dir, format);
  const at = (file: string): string => path.join(temp, path.relative(dir, file));
  const root = at(path.join(dir, ...LAYOUT[format].root));
  for (const parts of COPIED_FILES) {
    await fsp.mkdir(path.join(root, ...parts.slice(0, -1)), { recursive: true, mode: PRIVATE_DIR });
    await copyNew(path.join(source, ...parts), path.join(root, ...parts));
  }
  await copyFolder(path.join(source, ...PANEL), path.join(root, ...PANEL));
  const env: Record<string, string> = { ...i.env };
  for (const name of Object.keys(env)) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`"${name}" cannot be the name of an environment variable`);
  const serverArgs = ['mcp', '--no-project', '--home', i.zotHome];
  const serverEnv = guard === 'mcp' ? { ...env, [GUARD_TOOL_ENV]: '1' } : env;
  const manifest = format === 'agent-plugins'
    ? agentPluginsManifest(DESCRIPTION)
    : { name: PLUGIN_NAME, version: HOST_VERSION, description: DESCRIPTION, ...(format === 'copilot' && { hooks: 'hooks.json', mcpServers: '.mcp.json' }) };
  const mcp = format === 'agent-plugins'
    ? agentPluginsMcp(path.relative(dir, final.cli), serverArgs, env)
    : { mcpServers: { [PLUGIN_SERVER]: { command: i.runtime, args: [final.cli, ...serverArgs], env: serverEnv } } };
  const hookEnv: Record<string, string> = { ...env, ...(i.windows !== undefined && { [WINDOWS_VAR]: i.windows }) };
  const command = (event: InstalledHook): { type: 'command'; command: string; env: Record<string, string>; timeout: number } => ({
    type: 'command',
    command: `${assignments(hookEnv)}${hookCommandLine({ runtime: i.runtime, hook: final.hook, zotHome: i.zotHome, ...(i.failClosed && { failClosed: true }) }, event)}`,
    env: hookEnv,
    timeout: HOOK_TIMEOUT_S,
  });
  // The guard tool of the plugin's own server, called with the hook input's fields; a failed call blocks only when failing closed.
  const mcpTool = (event: InstalledHook): Record<string, unknown> => ({
    type: 'mcp_tool',
    server: HOOK_SERVER[format],
    tool: GUARD_TOOL,
    input: { ...Object.fromEntries(HOOK_FIELDS[event].map((f) => [f, `\${${f}}`])), fail_closed: i.failClosed === true },
    onFailure: i.failClosed ? 'block' : 'continue',
    timeout: HOOK_TIMEOUT_S,
  });
  // Claude's shape: a matcher group per event (PreToolUse matches every tool, in Claude Code with mcp_tool all but zot's own); VS Code reads the commands in it.
  // Copilot's: version 1, its own event names, the command as `bash` with its timeout in `timeoutSec`.
  const hooks = format === 'copilot' || format === 'agent-plugins'
    ? { version: 1, hooks: Object.fromEntries(INSTALLED_HOOKS.map((e) => [COPILOT_EVENT[e], [{ type: 'command', bash: command(e).command, env: hookEnv, timeoutSec: HOOK_TIMEOUT_S }]])) }
    : { hooks: Object.fromEntries(INSTALLED_HOOKS.map((e) => [e, [{ ...(e === 'PreToolUse' && { matcher: preToolUseMatcher(format, guard) }), hooks: [guard === 'mcp' ? mcpTool(e) : command(e)] }]])) };
  await fsp.mkdir(path.dirname(at(final.manifest)), { recursive: true, mode: PRIVATE_DIR });
  await fsp.mkdir(path.dirname(at(final.hooks)), { recursive: true, mode: PRIVATE_DIR });
  await writeNew(at(final.manifest), json(manifest));
  await writeNew(at(final.mcp), json(mcp));
  await writeNew(at(final.hooks), json(hooks));
  await writeNew(at(final.readme), readme(dir, i));
  if (final.launcher) {
    await fsp.mkdir(path.dirname(at(final.launcher)), { recursive: true, mode: PRIVATE_DIR });
    await fsp.writeFile(at(final.launcher), launcherText(i.runtime), { flag: 'wx', mode: 0o700 });
  }
  if (final.marketplace) {
    await fsp.mkdir(path.dirname(at(final.marketplace)), { recursive: true, mode: PRIVATE_DIR });
    const catalog = { name: CODEX_MARKETPLACE, owner: { name: 'zot-host' }, plugins: [{ name: PLUGIN_NAME, source: `./${PLUGIN_NAME}`, version: HOST_VERSION, description: DESCRIPTION }] };
    await writeNew(at(final.marketplace), json(catalog));
  }
}

/** Copilot CLI's names of the hooks zot installs. */
const COPILOT_EVENT: Record<InstalledHook, string> = { PreToolUse: 'preToolUse', UserPromptSubmit: 'userPromptSubmitted' };

/**
 * The hook's environment as assignments before the command, on POSIX shells:
 * Claude Code's hooks take no `env` (VS Code's and Copilot CLI's do), and
 * VS Code's runtime without ELECTRON_RUN_AS_NODE would open an editor
 * rather than run zot-host. cmd.exe has no such form: there only `env` sets them.
 */
function assignments(env: Record<string, string>, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return '';
  return Object.entries(env).map(([k, v]) => `${k}=${shellWord(v, platform)} `).join('');
}

/** Copies the regular files and folders of `from` into `to`; links and what the VSIX leaves out (sources, maps) are not copied. */
async function copyFolder(from: string, to: string): Promise<void> {
  await fsp.mkdir(to, { recursive: true, mode: PRIVATE_DIR });
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) await copyFolder(src, dst);
    else if (entry.isFile() && !/\.(ts|map)$/.test(entry.name)) await copyNew(src, dst);
  }
}

/** Copies a file, writable by its owner alone whatever the source's mode. */
async function copyNew(from: string, to: string): Promise<void> {
  await fsp.copyFile(from, to, constants.COPYFILE_EXCL);
  await fsp.chmod(to, (await fsp.stat(to)).mode & 0o755);
}

function writeNew(file: string, text: string): Promise<void> {
  return fsp.writeFile(file, text, { flag: 'wx', mode: 0o600 });
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Whether `inner` is `outer` or inside it. */
function isInside(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function readme(dir: string, i: PluginInputs): string {
  const what = i.format === 'copilot'
    ? 'in Copilot CLI\'s own plugin format (`plugin.json`, `.mcp.json`, `hooks.json`), for `copilot plugin install`'
    : i.format === 'agent-plugins'
      ? `in the Agent Plugins 1.0 format (\`plugin.json\`, \`mcp.json\`, Copilot CLI's hooks in\n\`${COPILOT_NAMESPACE}/hooks/hooks.json\`), for \`copilot plugin install\` and other clients of the standard`
      : i.format === 'codex'
      ? `for Codex: a plugin marketplace (\`.claude-plugin/marketplace.json\`, named ${CODEX_MARKETPLACE}) holding the plugin in\nClaude's format in \`${PLUGIN_NAME}/\`, for \`codex plugin marketplace add\` and \`codex plugin add ${PLUGIN_NAME}@${CODEX_MARKETPLACE}\``
      : 'in the Claude plugin format (`.claude-plugin/plugin.json`, `.mcp.json`,\n`hooks/hooks.json`), read by VS Code\'s Agent Plugins, Claude Code and Copilot CLI';
  return `# zot extensions: agent plugin

An agent plugin ${what}. Written by
zot-host ${HOST_VERSION}. It gives an agent:

- the MCP server \`${PLUGIN_SERVER}\`: the tools of the global zot extensions of your zot home
  (${i.zotHome}) and their commands as prompts;
- zot guards in front of every tool call (PreToolUse) and prompt (UserPromptSubmit): extensions that
  intercept \`tool_call\` (a call) or \`user_message\` (a prompt) can refuse them${i.failClosed ? ', and a call or prompt whose guards could not all run is refused' : ''}.

Both run this folder's own copy of zot-host (\`dist/\`) with ${i.runtime}, so the plugin keeps working after
the installation it came from is updated or removed; neither loads a project's own extensions
(\`--no-project\`). Every path in it is absolute: move the folder and write it again instead.
\`${MARKER}\` and a record in the zot home say zot-host wrote it: zot-host writes over this folder
only while it holds just what zot-host wrote, so keep your own files elsewhere.

To write it again (a newer zot-host, another zot home, failing closed or not), over this folder:

    zot-host plugin ${dir}${i.format && i.format !== 'claude' ? ` --format ${i.format}` : ''} [--home <dir>] [--fail-closed]

or, in VS Code, the command **Zot: Create Agent Plugin**.
`;
}
