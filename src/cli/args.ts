/** zot-host's command line: verbs, options, and tool arguments read from where they are given. */
import * as fs from 'node:fs';
import * as path from 'node:path';
// From the host's light face, not its index: `--help` and a usage error load no more of the host than
// this (see main.ts).
import { HOOK_EVENT_NAMES, HOOK_EVENTS, hookEventOf, HOST_VERSION, type HostOptions, PLUGIN_FORMATS, type PluginFormat, GUARD_HOOKS, type GuardHook, SCAFFOLD_LANGUAGES, type ScaffoldLanguage, type TraceSink } from '../host/names.js';
import { deeperThan, MAX_VALUE_DEPTH } from '../protocol/index.js';
import { err } from './output.js';

export const USAGE = `zot-host ${HOST_VERSION}: run zot extensions without an editor

usage:
  zot-host init    <dir> --language node|python|go [--name <name>]
                   write a new extension with one command and one tool
  zot-host doctor  [options] [--json]
  zot-host tool    <name> [<args>] [options] [--json] [--timeout <ms>]
  zot-host command <name> [<args>...] [options] [--json] [--timeout <ms>]
  zot-host mcp     [options]           MCP server on stdio
  zot-host mcp --http [--port <n>] [options]
                   MCP server over Streamable HTTP on 127.0.0.1; prints
                   {"url":…,"token":…} and serves until SIGINT, SIGTERM
                   or SIGHUP
  zot-host watch   [options]           keep the extensions running, restart one
                   when a file in its folder changes; prints state changes
                   until Ctrl-C
  zot-host hook    <event> [--fail-closed] [options]
                   an agent hook (VS Code's agent, Claude Code, Copilot CLI):
                   reads its input on stdin, runs zot's events and intercepts,
                   writes its answer on stdout; <event> is PreToolUse,
                   PostToolUse, SessionStart, UserPromptSubmit or Stop (Copilot
                   CLI's preToolUse, postToolUse, sessionStart,
                   userPromptSubmitted too); a guard that could not run is
                   named in the answer; --fail-closed refuses the call or
                   prompt then, and when a guard does not answer in time
                   (without it that allows, as in zot); zot's own tools over
                   MCP are guarded there, once: in Claude Code and Codex
                   under the server name zot (claude mcp add zot -- zot-host
                   mcp), and as the agent plugin's server (Claude Code,
                   Copilot CLI)
  zot-host plugin  <dir> [--format claude|copilot|codex|agent-plugins]
                   [--home <dir>] [--fail-closed] [--mcp-config <file>]
                   [--guard-hook command|mcp]
                   write zot as an agent plugin into <dir>, in Claude's plugin
                   format (the default), Copilot CLI's own, as a Codex
                   plugin marketplace, or in Agent Plugins 1.0: the MCP
                   server zot and the PreToolUse and UserPromptSubmit hooks,
                   run by the plugin's own copy of this zot-host with the global
                   extensions of the zot home; prints how to enable it in
                   VS Code, Claude Code and Copilot CLI; --mcp-config adds
                   the server zot to an MCP config file (a project's
                   .mcp.json, Copilot CLI's ~/.copilot/mcp-config.json);
                   --guard-hook mcp (claude; codex's default) hooks the
                   guards in as mcp_tool calls of the server, no process per
                   call (Claude Code, Codex), command as zot-host hook
  zot-host secrets list <extension> [--json] [--home <dir>]
                   the names of the secrets an extension stored while running
                   here (never their values); they are kept in
                   <zot home>/secrets/secrets.json, private to you
  zot-host secrets forget <extension> [--home <dir>]
                   delete every secret that extension stored

<args> for tool: a JSON object, @<file> to read it from a file, or - for stdin (default {})

options:
  --cwd <dir>    project directory (default: the current directory)
  --home <dir>   zot home (default: $ZOT_HOME, else the platform default)
  --ext <dir>    an extension folder to load explicitly; repeatable; earlier wins
  --no-discover  load only the --ext folders
  --no-project   load no project extensions (the .zot/extensions of --cwd);
                 global and --ext ones still load
  --provider <name>, --model <name>
                 the provider and model extensions are told in hello_ack
                 (mcp without --provider: the MCP client's name)
  --trace        every frame to stderr, one a line: → host to extension, ← back
                 (--trace=messages: direction, type, id and size only)
`;

const VERBS = ['init', 'doctor', 'tool', 'command', 'mcp', 'watch', 'hook', 'plugin', 'secrets'] as const;
export type Verb = (typeof VERBS)[number];

/** A mistake in how zot-host was called: exit 2, with the usage. An empty message asks for the usage itself. */
export class UsageError extends Error {}

export interface Parsed {
  verb: Verb;
  positional: string[];
  json: boolean;
  /** Whether --cwd was given (a hook otherwise takes the project from its input). */
  cwdGiven?: boolean;
  /** hook --fail-closed (and plugin's, for the hooks it writes): a guarded call or prompt whose guards could not all run is refused. */
  failClosed?: boolean;
  timeoutMs?: number;
  /** mcp --http, and its --port (0: any free port). */
  httpPort?: number;
  /** init's --language and --name. */
  language?: ScaffoldLanguage;
  name?: string;
  /** plugin's --format, and its --mcp-config (a file to add the server zot to). */
  format?: PluginFormat;
  mcpConfig?: string;
  /** plugin's --guard-hook. */
  guardHook?: GuardHook;
  host: HostOptions;
}

export function parseArgs(argv: string[]): Parsed {
  const [verb, ...rest] = argv;
  if (!verb) throw new UsageError('no command given');
  if (verb === '-h' || verb === '--help' || verb === 'help') throw new UsageError('');
  if (!(VERBS as readonly string[]).includes(verb)) throw new UsageError(`unknown command "${verb}"`);
  const positional: string[] = [];
  const ext: string[] = [];
  let cwd = process.cwd();
  let cwdGiven = false;
  let home: string | undefined;
  let discover = true;
  let project = true;
  let json = false;
  let timeoutMs: number | undefined;
  let http = false;
  let failClosed = false;
  let port: number | undefined;
  let provider: string | undefined;
  let model: string | undefined;
  let trace: TraceSink['level'] | undefined;
  let language: string | undefined;
  let name: string | undefined;
  let format: string | undefined;
  let mcpConfig: string | undefined;
  let guardHook: string | undefined;
  /** Options other than init's own, to refuse them on init. */
  const hostFlags: string[] = [];
  const value = (i: number, flag: string): string => {
    const v = rest[i + 1];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--') { positional.push(...rest.slice(i + 1)); break; }
    if (a.startsWith('--') && a !== '--language' && a !== '--name') hostFlags.push(a);
    switch (a) {
      case '--trace': trace = 'verbose'; break;
      case '--trace=verbose': trace = 'verbose'; break;
      case '--trace=messages': trace = 'messages'; break;
      case '--language': language = value(i, a); i++; break;
      case '--name': name = value(i, a); i++; break;
      case '--format': format = value(i, a); i++; break;
      case '--mcp-config': mcpConfig = path.resolve(value(i, a)); i++; break;
      case '--guard-hook': guardHook = value(i, a); i++; break;
      case '--json': json = true; break;
      case '--no-discover': discover = false; break;
      case '--no-project': project = false; break;
      case '--cwd': cwd = path.resolve(value(i, a)); cwdGiven = true; i++; break;
      case '--home': home = path.resolve(value(i, a)); i++; break;
      case '--ext': ext.push(path.resolve(value(i, a))); i++; break;
      case '--http': http = true; break;
      case '--fail-closed': failClosed = true; break;
      case '--provider': provider = value(i, a); i++; break;
      case '--model': model = value(i, a); i++; break;
      case '--port': {
        const v = value(i, a);
        if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`--port takes a port number (0 to 65535), got "${v}"`);
        port = Number(v);
        i++;
        break;
      }
      case '--timeout': {
        const v = value(i, a);
        const n = Number(v);
        if (!/^\d+$/.test(v) || n <= 0) throw new UsageError(`--timeout takes a whole number of milliseconds, got "${v}"`);
        timeoutMs = n;
        i++;
        break;
      }
      default:
        if (a.startsWith('--') && a.length > 2) throw new UsageError(`unknown option ${a}`);
        positional.push(a);
    }
  }
  if (verb === 'init') return parseInit(positional, language, name, hostFlags);
  if (verb === 'secrets') return parseSecrets(positional, json, home, hostFlags);
  if (verb === 'plugin') return { ...parsePlugin(positional, home, failClosed, format, [...hostFlags, ...(language !== undefined ? ['--language'] : []), ...(name !== undefined ? ['--name'] : [])]), ...(mcpConfig !== undefined && { mcpConfig }), ...(guardHook !== undefined && { guardHook: guardHookArg(guardHook) }) };
  if (format !== undefined) throw new UsageError('--format is an option of plugin');
  if (guardHook !== undefined) throw new UsageError('--guard-hook is an option of plugin');
  if (mcpConfig !== undefined) throw new UsageError('--mcp-config is an option of plugin');
  if (language !== undefined || name !== undefined) throw new UsageError(`${language !== undefined ? '--language' : '--name'} is an option of init`);
  if (!fs.existsSync(cwd)) throw new UsageError(`--cwd ${cwd} does not exist`);
  if ((verb === 'tool' || verb === 'command') && positional.length === 0) throw new UsageError(`${verb} needs a name`);
  if (verb === 'tool' && positional.length > 2) throw new UsageError('tool takes one <args> value (quote the JSON)');
  if (verb === 'hook') {
    if (positional.length === 0) throw new UsageError(`hook needs the event: ${HOOK_EVENTS.join(', ')}`);
    const event = hookEventOf(positional[0]!);
    if (!event) throw new UsageError(`hook takes ${HOOK_EVENTS.join(', ')} (or Copilot CLI's ${HOOK_EVENT_NAMES.slice(HOOK_EVENTS.length).join(', ')}), got "${positional[0]}"`);
    positional[0] = event;
    if (positional.length > 1) throw new UsageError(`hook takes one event (got "${positional[1]}" too); its input comes on stdin`);
    if (json) throw new UsageError('hook always answers in JSON; --json is not an option of hook');
  }
  if ((verb === 'doctor' || verb === 'mcp' || verb === 'watch') && positional.length > 0) throw new UsageError(`${verb} takes no arguments (got "${positional[0]}")`);
  if (http && verb !== 'mcp') throw new UsageError('--http is an option of mcp');
  if (failClosed && verb !== 'hook') throw new UsageError('--fail-closed is an option of hook');
  if (port !== undefined && !http) throw new UsageError('--port needs --http');
  const host: HostOptions = { cwd, extensionPaths: ext, discover };
  if (!project) host.projectDirs = [];
  if (home !== undefined) host.zotHome = home;
  if (provider !== undefined) host.provider = provider;
  if (model !== undefined) host.model = model;
  // One frame a line on stderr, named by extension: stdout stays the verb's own.
  if (trace) host.trace = { level: trace, line: (ext, text) => err(`[${ext}] ${text}`) };
  const parsed: Parsed = { verb: verb as Verb, positional, json, host };
  if (cwdGiven) parsed.cwdGiven = true;
  if (failClosed) parsed.failClosed = true;
  if (timeoutMs !== undefined) parsed.timeoutMs = timeoutMs;
  if (http) parsed.httpPort = port ?? 0;
  return parsed;
}

function parseInit(positional: string[], language: string | undefined, name: string | undefined, others: string[]): Parsed {
  if (others.length > 0) throw new UsageError(`init takes only --language and --name (got ${others[0]})`);
  if (positional.length !== 1) throw new UsageError(positional.length === 0 ? 'init needs the folder to write the extension into' : `init takes one folder (got "${positional[1]}" too)`);
  if (language === undefined) throw new UsageError(`init needs --language (${SCAFFOLD_LANGUAGES.join(', ')})`);
  if (!(SCAFFOLD_LANGUAGES as readonly string[]).includes(language)) throw new UsageError(`--language takes ${SCAFFOLD_LANGUAGES.join(', ')}, got "${language}"`);
  const dir = path.resolve(positional[0]!);
  const parsed: Parsed = { verb: 'init', positional: [dir], json: false, language: language as ScaffoldLanguage, host: { cwd: process.cwd() } };
  if (name !== undefined) parsed.name = name;
  return parsed;
}

function parseSecrets(positional: string[], json: boolean, home: string | undefined, flags: string[]): Parsed {
  const other = flags.find((f) => f !== '--home' && f !== '--json');
  if (other !== undefined) throw new UsageError(`secrets takes only --home and --json (got ${other})`);
  const [action, extension, more] = positional;
  if (action !== 'list' && action !== 'forget') throw new UsageError(action === undefined ? 'secrets needs list or forget' : `secrets takes list or forget, got "${action}"`);
  if (extension === undefined || extension === '') throw new UsageError(`secrets ${action} needs the extension's name`);
  if (more !== undefined) throw new UsageError(`secrets ${action} takes one extension (got "${more}" too)`);
  if (json && action === 'forget') throw new UsageError('--json is an option of secrets list');
  const parsed: Parsed = { verb: 'secrets', positional: [action, extension], json, host: { cwd: process.cwd() } };
  if (home !== undefined) parsed.host.zotHome = home;
  return parsed;
}

function parsePlugin(positional: string[], home: string | undefined, failClosed: boolean, format: string | undefined, flags: string[]): Parsed {
  const other = flags.find((f) => !['--home', '--fail-closed', '--format', '--mcp-config', '--guard-hook'].includes(f));
  if (other !== undefined) throw new UsageError(`plugin takes only --format, --home, --fail-closed, --mcp-config and --guard-hook (got ${other})`);
  if (format !== undefined && !(PLUGIN_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format takes ${PLUGIN_FORMATS.join(', ')}, got "${format}"`);
  if (positional.length !== 1) throw new UsageError(positional.length === 0 ? 'plugin needs the folder to write the plugin into' : `plugin takes one folder (got "${positional[1]}" too)`);
  const parsed: Parsed = { verb: 'plugin', positional: [path.resolve(positional[0]!)], json: false, host: { cwd: process.cwd() } };
  if (home !== undefined) parsed.host.zotHome = home;
  if (failClosed) parsed.failClosed = true;
  if (format !== undefined) parsed.format = format as PluginFormat;
  return parsed;
}

function guardHookArg(v: string): GuardHook {
  if (!(GUARD_HOOKS as readonly string[]).includes(v)) throw new UsageError(`--guard-hook takes ${GUARD_HOOKS.join(' or ')}, got "${v}"`);
  return v as GuardHook;
}

/** A tool's arguments: inline JSON, `@file`, or `-` for stdin. */
export function readToolArgs(spec: string | undefined): Record<string, unknown> {
  if (spec === undefined) return {};
  let text: string;
  let where: string;
  if (spec === '-') {
    text = fs.readFileSync(0, 'utf8');
    where = 'stdin';
  } else if (spec.startsWith('@')) {
    const file = spec.slice(1);
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read tool arguments from ${file}: ${(err as Error).message}`);
    }
    where = file;
  } else {
    text = spec;
    where = 'the command line';
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`tool arguments from ${where} are not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`tool arguments from ${where} must be a JSON object`);
  if (deeperThan(value, MAX_VALUE_DEPTH)) throw new UsageError(`tool arguments from ${where} are nested deeper than ${MAX_VALUE_DEPTH} levels`);
  return value as Record<string, unknown>;
}
