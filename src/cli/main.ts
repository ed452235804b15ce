/**
 * zot-host: the headless host, for extension authors and scripts.
 *
 * Exit status: 0 success; 1 a call that did not complete cleanly, or a doctor
 * report with a failed extension; 2 a usage error; 130 interrupted. Every
 * verb's output is flushed before the process exits, through pipes too.
 */
import * as path from 'node:path';
import { parseArgs, readToolArgs, UsageError, USAGE, type Parsed } from './args.js';
import type { RunAlone } from './hook.js';
import { err, exitWhenDone, out } from './output.js';
import type { Session } from './running/session.js';
import type { McpBundle } from '../mcp/index.js';

/*
 * Each verb is required when it runs, not imported: the bundler then wraps
 * its modules to be evaluated on that first require, so `--help` and a
 * usage error start without loading the host, vscode-jsonrpc or the Node
 * modules for processes, HTTP and hashes (an agent hook pays only for what
 * `hook` uses).
 */
const verbs = {
  calls: (): typeof import('./running/calls.js') => require('./running/calls.js') as typeof import('./running/calls.js'),
  doctor: (): typeof import('./running/doctor.js') => require('./running/doctor.js') as typeof import('./running/doctor.js'),
  hook: (): typeof import('./hook.js') => require('./hook.js') as typeof import('./hook.js'),
  hookAlone: (): typeof import('./hookAlone.js') => require('./hookAlone.js') as typeof import('./hookAlone.js'),
  init: (): typeof import('./init.js') => require('./init.js') as typeof import('./init.js'),
  plugin: (): typeof import('./plugin.js') => require('./plugin.js') as typeof import('./plugin.js'),
  secrets: (): typeof import('./secrets.js') => require('./secrets.js') as typeof import('./secrets.js'),
  session: (): typeof import('./running/session.js') => require('./running/session.js') as typeof import('./running/session.js'),
  watch: (): typeof import('./running/watch.js') => require('./running/watch.js') as typeof import('./running/watch.js'),
};

export async function main(argv: string[]): Promise<number> {
  let parsed: Parsed;
  let toolArgs: Record<string, unknown> = {};
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    if (e.message) err(`zot-host: ${e.message}\n`);
    (e.message ? err : out)(USAGE);
    return e.message ? 2 : 0;
  }
  try {
    if (parsed.verb === 'tool') toolArgs = readToolArgs(parsed.positional[1]);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`zot-host: ${e.message}`);
    return 2;
  }
  const p = parsed;
  // Every host this CLI makes answers terva's secret requests from the zot home's private file.
  const hostOptions = (): Parsed['host'] => verbs.secrets().withSecretStore(p.host);
  const inSession = <T>(use: (s: Session) => Promise<T>): Promise<T> => verbs.session().withSession(hostOptions(), use);
  switch (p.verb) {
    case 'init':
      try {
        return verbs.init().init(p);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        err(`zot-host: ${e.message}`);
        return 2;
      }
    case 'mcp': return p.httpPort !== undefined
      ? mcpBundle().runMcpHttp(hostOptions(), p.httpPort, out, err)
      : mcpBundle().runMcpStdio(hostOptions(), err);
    case 'doctor': return inSession((s) => verbs.doctor().doctor(s, p));
    case 'tool': return inSession((s) => verbs.calls().tool(s, p, toolArgs));
    case 'command': return inSession((s) => verbs.calls().command(s, p));
    case 'watch': return inSession((s) => verbs.watch().watch(s));
    case 'hook': return verbs.hook().hook(p, hookAlone);
    case 'plugin': return verbs.plugin().plugin(p);
    case 'secrets': return verbs.secrets().secrets(p);
  }
}

/**
 * The MCP server's bundle (dist/mcp.js, beside this one), read only for `mcp`:
 * the SDK and its validators are most of its size, and every other verb (a
 * hook on each tool call above all) starts without parsing them.
 */
function mcpBundle(): McpBundle {
  return require(path.join(__dirname, 'mcp.js')) as McpBundle;
}

/**
 * The hook verb's guards run in this process, no window having answered;
 * dist/hook.js calls it here. Its host answers terva's secret requests as
 * every host of this CLI does.
 */
export const hookAlone: RunAlone = (p, ...rest) => verbs.hookAlone().runAlone({ ...p, host: verbs.secrets().withSecretStore(p.host) }, ...rest);

/** Runs zot-host and exits with its status once its output is out. */
export function run(argv: string[]): void {
  exitWhenDone(main(argv));
}
