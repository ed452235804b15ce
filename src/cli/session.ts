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

export async function withSession<T>(options: HostOptions, run: (s: Session) => Promise<T>): Promise<T> {
  const host = new ZotHost({ ...options, ui: new HeadlessUI(err) });
  const cancel = new CancellationTokenSource();
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) return;
    interrupted = true;
    cancel.cancel();
    // What waits on an extension (doctor's hello wait, a start) ends with it, not at its timeout.
    for (const rt of host.extensions) void host.stopExtension(rt.name).catch(() => undefined);
  };
  for (const sig of SIGNALS) process.on(sig, onSigint);
  try {
    await host.start();
    return await run({ host, cancel, interrupted: () => interrupted });
  } finally {
    await host.dispose();
    for (const sig of SIGNALS) process.off(sig, onSigint);
    cancel.dispose();
  }
}
