/**
 * `zot-host watch`: the extensions kept running, one restarted when a file in
 * its folder changes (a change to its extension.json reloads them all, since
 * only discovery reads a manifest). A restart asked for this way resets the
 * crash budget, so an extension that crashed while half-edited starts again on
 * the next save. State changes go to stdout; frames to stderr with --trace.
 * Ends on SIGINT or SIGTERM with every process gone.
 */
import { FolderWatcher, projectExtensionsDir, reactToChange, stateLabel, stateOf, type ExtensionView, type ZotHost } from '../../host/index.js';
import { firstEvent } from '../firstEvent.js';
import { err, out } from '../output.js';
import type { Session } from './session.js';

export async function watch({ host }: Session): Promise<number> {
  const watcher = new FolderWatcher(
    (name, files) => enqueue(() => onChange(name, files)),
    (name, message) => err(`${name}: ${message}`),
  );
  let queue: Promise<void> = Promise.resolve();
  let ending = false;
  const enqueue = (op: () => Promise<void>): Promise<void> => (queue = queue.then(() => (ending ? undefined : op())).catch((e: unknown) => err(`zot-host watch: ${(e as Error).message}`)));
  const follow = (): void => watcher.set(host.extensions.map((rt) => ({ name: rt.name, dir: rt.dir })));

  const onChange = async (name: string, files: string[]): Promise<void> => {
    const done = await reactToChange(name, files, {
      has: (n) => host.get(n) !== undefined,
      reload: () => host.reload(),
      restart: (n) => host.restartExtension(n),
      say: (n, line) => out(`${n}: ${line}`),
    });
    if (done === 'reloaded') follow();
  };

  // One line per change people can see: moves inside a state (registering to ready's wait) print nothing new.
  const last = new Map<string, string>();
  const states = host.onDidChangeState(({ extension: rt }) => {
    const line = stateLine(rt);
    if (last.get(rt.name) === line) return;
    last.set(rt.name, line);
    out(line);
  });
  printLoaded(host);
  for (const rt of host.extensions) last.set(rt.name, stateLine(rt));
  follow();
  out(`watching ${watcher.names.length} folder${watcher.names.length === 1 ? '' : 's'}; Ctrl-C to stop`);

  await firstEvent(process, ['SIGINT', 'SIGTERM']);
  ending = true;
  watcher.dispose();
  await queue;
  states.dispose();
  out('stopping');
  return 0;
}

function printLoaded(host: ZotHost): void {
  if (host.extensions.length === 0) out(`no extensions found: pass --ext <dir>, or add one to ${projectExtensionsDir('')}`);
  for (const rt of host.extensions) out(`${stateLine(rt)} in ${rt.dir}`);
}

/** `name: state (why)`, the line watch prints for an extension. */
function stateLine(rt: ExtensionView): string {
  return `${rt.name}: ${stateLabel(stateOf(rt))}${rt.error ? ` (${rt.error})` : ''}`;
}
