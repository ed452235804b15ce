/**
 * zot-host: the headless host, for extension authors and scripts.
 *
 *   zot-host doctor  [options] [--json]
 *   zot-host tool    <name> [<args>] [options] [--json] [--timeout <ms>]
 *   zot-host command <name> [<args>...] [options] [--json] [--timeout <ms>]
 *   zot-host mcp     [--http [--port <n>]] [options]
 *
 * Exit status: 0 success; 1 a call that did not complete cleanly, or a doctor
 * report with a failed extension; 2 a usage error; 130 interrupted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { boundedStringify, deeperThan, MAX_VALUE_DEPTH, terminalSafe, type ContentBlock } from './protocol/index.js';
import { HeadlessUI, HOST_VERSION, ZotHost, renderPanelText, type ExtensionReport, type HostOptions } from './host/index.js';
import { runMcpHttp } from './mcp/serveHttp.js';
import { runMcpStdio } from './mcp/stdio.js';

const USAGE = `zot-host ${HOST_VERSION}: run zot extensions without an editor

usage:
  zot-host doctor  [options] [--json]
  zot-host tool    <name> [<args>] [options] [--json] [--timeout <ms>]
  zot-host command <name> [<args>...] [options] [--json] [--timeout <ms>]
  zot-host mcp     [options]           MCP server on stdio
  zot-host mcp --http [--port <n>] [options]
                   MCP server over Streamable HTTP on 127.0.0.1; prints
                   {"url":…,"token":…} and serves until SIGINT or SIGTERM

<args> for tool: a JSON object, @<file> to read it from a file, or - for stdin (default {})

options:
  --cwd <dir>    project directory (default: the current directory)
  --home <dir>   zot home (default: $ZOT_HOME, else the platform default)
  --ext <dir>    an extension folder to load explicitly; repeatable; earlier wins
  --no-discover  load only the --ext folders
`;

class UsageError extends Error {}

interface Parsed {
  verb: string;
  positional: string[];
  json: boolean;
  timeoutMs?: number;
  /** mcp --http, and its --port (0: any free port). */
  httpPort?: number;
  host: HostOptions;
}

export function parseArgs(argv: string[]): Parsed {
  const [verb, ...rest] = argv;
  if (!verb) throw new UsageError('no command given');
  if (verb === '-h' || verb === '--help' || verb === 'help') throw new UsageError('');
  if (!['doctor', 'tool', 'command', 'mcp'].includes(verb)) throw new UsageError(`unknown command "${verb}"`);
  const positional: string[] = [];
  const ext: string[] = [];
  let cwd = process.cwd();
  let home: string | undefined;
  let discover = true;
  let json = false;
  let timeoutMs: number | undefined;
  let http = false;
  let port: number | undefined;
  const value = (i: number, flag: string): string => {
    const v = rest[i + 1];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--') { positional.push(...rest.slice(i + 1)); break; }
    switch (a) {
      case '--json': json = true; break;
      case '--no-discover': discover = false; break;
      case '--cwd': cwd = path.resolve(value(i, a)); i++; break;
      case '--home': home = path.resolve(value(i, a)); i++; break;
      case '--ext': ext.push(path.resolve(value(i, a))); i++; break;
      case '--http': http = true; break;
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
  if (!fs.existsSync(cwd)) throw new UsageError(`--cwd ${cwd} does not exist`);
  if ((verb === 'tool' || verb === 'command') && positional.length === 0) throw new UsageError(`${verb} needs a name`);
  if (verb === 'tool' && positional.length > 2) throw new UsageError('tool takes one <args> value (quote the JSON)');
  if ((verb === 'doctor' || verb === 'mcp') && positional.length > 0) throw new UsageError(`${verb} takes no arguments (got "${positional[0]}")`);
  if (http && verb !== 'mcp') throw new UsageError('--http is an option of mcp');
  if (port !== undefined && !http) throw new UsageError('--port needs --http');
  const host: HostOptions = { cwd, extensionPaths: ext, discover };
  if (home !== undefined) host.zotHome = home;
  const parsed: Parsed = { verb, positional, json, host };
  if (timeoutMs !== undefined) parsed.timeoutMs = timeoutMs;
  if (http) parsed.httpPort = port ?? 0;
  return parsed;
}

function readToolArgs(spec: string | undefined): Record<string, unknown> {
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

// Everything the CLI prints goes through these two, so no text from an extension reaches the terminal raw.
const out = (s: string): void => void process.stdout.write(terminalSafe(s.endsWith('\n') ? s : `${s}\n`));
const err = (s: string): void => void process.stderr.write(terminalSafe(s.endsWith('\n') ? s : `${s}\n`));

export async function main(argv: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.message) err(`zot-host: ${e.message}\n`);
      (e.message ? err : out)(USAGE);
      return e.message ? 2 : 0;
    }
    throw e;
  }
  if (parsed.verb === 'mcp') return parsed.httpPort !== undefined ? runMcpHttp(parsed.host, parsed.httpPort, out, err) : runMcpStdio(parsed.host, err);

  let toolArgs: Record<string, unknown> = {};
  try {
    if (parsed.verb === 'tool') toolArgs = readToolArgs(parsed.positional[1]);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`zot-host: ${e.message}`);
      return 2;
    }
    throw e;
  }

  const host = new ZotHost({ ...parsed.host, ui: new HeadlessUI(err) });
  const cancel = new CancellationTokenSource();
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) return;
    interrupted = true;
    cancel.cancel();
  };
  process.on('SIGINT', onSigint);
  try {
    await host.start();
    switch (parsed.verb) {
      case 'doctor':
        return doctor(host, parsed.json);
      case 'tool':
        return await tool(host, parsed, toolArgs, cancel, () => interrupted);
      default:
        return await command(host, parsed, cancel, () => interrupted);
    }
  } finally {
    await host.dispose();
    process.off('SIGINT', onSigint);
  }
}

function doctor(host: ZotHost, json: boolean): number {
  const reports = host.diagnostics();
  if (json) {
    out(boundedStringify({ extensions: reports.map(({ pid: _pid, ...r }) => r) }, 2));
  } else if (reports.length === 0) {
    out(`no extensions found (looked in ${path.join(host.zotHome, 'extensions')} and the project's .zot/extensions)`);
  } else {
    out(reports.map(formatReport).join('\n\n'));
  }
  return reports.some((r) => r.state === 'failed') ? 1 : 0;
}

function formatReport(r: ExtensionReport): string {
  const lines = [`${r.name}${r.version ? ` ${r.version}` : ''}: ${r.state.replace(/_/g, ' ')}${r.assets_only ? ' (theme or skills only)' : ''}`];
  lines.push(`  folder: ${r.dir} (${r.source})`, `  log:    ${r.log}`);
  if (r.error) lines.push(`  error:  ${r.error}`);
  if (r.capabilities.length) lines.push(`  capabilities: ${r.capabilities.join(', ')}`);
  for (const c of r.commands) lines.push(`  command /${c.name}${c.active ? '' : ` (inactive: shadowed by ${c.shadowed_by})`}${c.description ? ` - ${c.description}` : ''}`);
  for (const t of r.tools) lines.push(`  tool ${t.name}${t.interactive ? ' [interactive]' : ''}${t.active ? '' : ` (inactive: shadowed by ${t.shadowed_by})`}${t.description ? ` - ${t.description}` : ''}`);
  if (r.subscriptions.events.length) lines.push(`  events: ${r.subscriptions.events.join(', ')}`);
  if (r.subscriptions.intercept.length) lines.push(`  intercepts: ${r.subscriptions.intercept.join(', ')}`);
  for (const d of r.diagnostics) lines.push(`  problem: ${d}`);
  return lines.join('\n');
}

async function tool(host: ZotHost, p: Parsed, args: Record<string, unknown>, cancel: CancellationTokenSource, interrupted: () => boolean): Promise<number> {
  const name = p.positional[0]!;
  const o = await host.runToolCall(name, args, { token: cancel.token, ...(p.timeoutMs !== undefined && { timeoutMs: p.timeoutMs }) });
  if (p.json) {
    out(boundedStringify({ outcome: o.outcome, extension: o.extension, is_error: o.isError, content: o.content, message: o.message }));
  } else {
    const text = o.content.map(blockText).join('\n');
    if (text) (o.isError ? err : out)(text);
    if (o.outcome !== 'completed') err(`${name}: ${o.outcome.replace('_', ' ')}: ${o.message}`);
    else if (o.isError && !text) err(`${name}: the tool reported an error`);
  }
  if (interrupted()) return 130;
  return o.outcome === 'completed' && !o.isError ? 0 : 1;
}

async function command(host: ZotHost, p: Parsed, cancel: CancellationTokenSource, interrupted: () => boolean): Promise<number> {
  const [name, ...rest] = p.positional;
  const o = await host.invokeCommand(name!.replace(/^\//, ''), rest.join(' '), { token: cancel.token, ...(p.timeoutMs !== undefined && { timeoutMs: p.timeoutMs }) });
  const r = o.response;
  if (p.json) {
    if (r) {
      const { type: _t, id: _i, ...response } = r;
      out(boundedStringify(response));
    } else {
      out(boundedStringify({ outcome: o.outcome, message: o.message }));
    }
  } else if (!r) {
    err(`/${name}: ${o.outcome.replace('_', ' ')}: ${o.message}`);
  } else if (r.error) {
    err(`/${name}: error: ${r.error}`);
  } else {
    switch (r.action) {
      case 'prompt': out(`prompt for the model:\n${r.prompt ?? ''}`); break;
      case 'insert': out(r.insert ?? ''); break;
      case 'display': out(r.display ?? ''); break;
      case 'open_panel': out(r.open_panel ? renderPanelText({ title: r.open_panel.title ?? '', lines: r.open_panel.lines ?? [], footer: r.open_panel.footer ?? '' }) : ''); break;
      default: break;
    }
  }
  if (interrupted()) return 130;
  return o.outcome === 'completed' && !r?.error ? 0 : 1;
}

function blockText(b: ContentBlock): string {
  if (b.type === 'text') return String((b as { text?: unknown }).text ?? '');
  if (b.type === 'image') {
    const data = String((b as { data?: unknown }).data ?? '');
    return `[image ${String((b as { mime_type?: unknown }).mime_type ?? '?')}, ${Math.floor((data.length * 3) / 4)} bytes]`;
  }
  return `[${b.type} block]`;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      err(`zot-host: ${(e as Error).stack ?? String(e)}`);
      process.exit(1);
    },
  );
}
