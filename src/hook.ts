/**
 * dist/hook.js: zot-host for an agent's hook command, which the agent starts
 * on every tool call and prompt. It takes zot-host's own arguments. `hook
 * <Event>` is read here, and when a VS Code window with the project open
 * answers, this small bundle is all the process loads; a hook no window
 * answers, and every other verb or a usage error, goes on in dist/cli.js
 * beside it, in this same process.
 */
import * as path from 'node:path';
import { parseArgs, type Parsed } from './cli/args.js';
import { hook } from './cli/hook.js';
import { exitWhenDone } from './cli/output.js';

type Cli = typeof import('./cli.js');
const cli = (): Cli => require(path.join(__dirname, 'cli.js')) as Cli;

function front(argv: string[]): void {
  let p: Parsed | undefined;
  try {
    p = parseArgs(argv);
  } catch {
    // The CLI says what is wrong, in its words and with its exit status.
  }
  if (p?.verb !== 'hook') return cli().run(argv);
  exitWhenDone(hook(p, (...a) => cli().hookAlone(...a)));
}

if (require.main === module) front(process.argv.slice(2));
