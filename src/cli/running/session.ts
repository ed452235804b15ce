/**
 * A headless host for one verb, with Ctrl-C (and SIGTERM, SIGHUP) cancelling
 * what runs and a stop that leaves nothing behind before the process exits.
 */
import { CancellationTokenSource, HeadlessHost, type HostOptions, type ZotHost } from '../../host/index.js';
import { err } from '../output.js';

export interface Session {
  host: ZotHost;
  cancel: CancellationTokenSource;
  interrupted(): boolean;
}

/** `announce: false`: no session_start of its own (a hook sends it only for the agent's SessionStart). */
export async function withSession<T>(options: HostOptions, run: (s: Session) => Promise<T>, { announce = true } = {}): Promise<T> {
  const boot = new HeadlessHost(options, { log: err });
  const { host } = boot;
  const cancel = new CancellationTokenSource();
  let interrupted = false;
  let stopping: Promise<unknown> = Promise.resolve();
  // Heard for the whole run: a second Ctrl-C while the first one's stop runs is not a hard stop.
  boot.onEndSignal((sig) => {
    if (interrupted) return;
    interrupted = true;
    cancel.cancel();
    // Ctrl-C cancels what runs and then stops as usual. SIGTERM and SIGHUP mean the CLI is going away:
    // the extensions stop now, so nothing that waits on them (doctor's hello wait) holds them to a timeout.
    if (sig !== 'SIGINT') stopping = Promise.all(host.extensions.map((rt) => host.stopExtension(rt.name).catch(() => undefined)));
  });
  try {
    // One zot-host run is one session, as one zot process is: announced once, after the ready wait.
    await boot.begin({ announce });
    return await run({ host, cancel, interrupted: () => interrupted });
  } finally {
    // The stops a signal began finish first: stopping again would cut their ladder short.
    await stopping;
    await boot.dispose();
    cancel.dispose();
  }
}
