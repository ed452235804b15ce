/** A headless host for one verb, with Ctrl-C cancelling what runs and a stop that leaves nothing behind. */
import { CancellationTokenSource, HeadlessUI, ZotHost, type HostOptions } from '../host/index.js';
import { err } from './output.js';

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
  };
  process.on('SIGINT', onSigint);
  try {
    await host.start();
    // One zot-host run is one session, as one zot process is: announced once, after the ready wait.
    host.emit('session_start');
    return await run({ host, cancel, interrupted: () => interrupted });
  } finally {
    await host.dispose();
    process.off('SIGINT', onSigint);
    cancel.dispose();
  }
}
