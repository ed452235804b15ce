/**
 * A headless host for one verb, with Ctrl-C (and SIGTERM, SIGHUP) cancelling
 * what runs and a stop that leaves nothing behind before the process exits.
 */
import { CancellationTokenSource, HeadlessUI, ZotHost, type HostOptions } from '../host/index.js';
import { err } from './output.js';

/** What ends a verb early; each would otherwise kill the CLI and leave its extensions running. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Session {
  host: ZotHost;
  cancel: CancellationTokenSource;
  interrupted(): boolean;
}

/** `announce: false`: no session_start of its own (a hook sends it only for the agent's SessionStart). */
export async function withSession<T>(options: HostOptions, run: (s: Session) => Promise<T>, { announce = true } = {}): Promise<T> {
  const host = new ZotHost({ ...options, ui: new HeadlessUI(err) });
  const cancel = new CancellationTokenSource();
  let interrupted = false;
  let stopping: Promise<unknown> = Promise.resolve();
  const onSignal = (sig: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    cancel.cancel();
    // Ctrl-C cancels what runs and then stops as usual. SIGTERM and SIGHUP mean the CLI is going away:
    // the extensions stop now, so nothing that waits on them (doctor's hello wait) holds them to a timeout.
    if (sig !== 'SIGINT') stopping = Promise.all(host.extensions.map((rt) => host.stopExtension(rt.name).catch(() => undefined)));
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  try {
    await host.start();
    // One zot-host run is one session, as one zot process is: announced once, after the ready wait.
    if (announce) host.emit('session_start');
    return await run({ host, cancel, interrupted: () => interrupted });
  } finally {
    // The stops a signal began finish first: stopping again would cut their ladder short.
    await stopping;
    await host.dispose();
    for (const sig of SIGNALS) process.off(sig, onSignal);
    cancel.dispose();
  }
}
