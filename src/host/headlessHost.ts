/**
 * The one boot of a host without an editor, for every verb of `zot-host`
 * that runs extensions (`tool`, `command`, `doctor`, `hook`, `mcp` on stdio
 * and over HTTP): a ZotHost whose UI reports each note as a line, started
 * once, its run announced as one session (as one zot process is, after the
 * ready wait), the signals that end a run heard only while someone listens,
 * and everything stopped by `dispose`.
 */
import { ZotHost } from './zotHost.js';
import type { HostOptions } from './options.js';
import { HeadlessUI } from './ui/headless.js';

/** What ends a headless run: Ctrl-C, and the terminal or a supervisor going away. */
export const END_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface HeadlessBoot {
  /** Where every human line goes: the UI's notes, and with `hostLines` the host's own log. */
  log: (line: string) => void;
  /** Also say the host's own lines about each extension, as `[name] line` (the servers, whose log is all a user sees). */
  hostLines?: boolean;
}

export class HeadlessHost {
  readonly host: ZotHost;
  private begun: Promise<void> | undefined;
  private readonly handlers = new Map<(signal: NodeJS.Signals) => void, boolean>();
  private listening = false;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    for (const [handler, once] of [...this.handlers]) {
      if (once) this.handlers.delete(handler);
      handler(signal);
    }
    if (this.handlers.size === 0) this.listen(false);
  };

  constructor(options: HostOptions, { log, hostLines = false }: HeadlessBoot) {
    this.host = new ZotHost({ ...options, ui: new HeadlessUI(log) });
    if (hostLines) this.host.onLog((e) => e.kind === 'host' && log(`[${e.extension}] ${e.line}`));
  }

  /**
   * Starts the extensions, once: later calls get the first call's promise.
   * `announce: false`: no session_start of its own (a hook sends it only
   * for the agent's SessionStart).
   */
  begin({ announce = true }: { announce?: boolean } = {}): Promise<void> {
    this.begun ??= this.host.start().then(() => {
      if (announce) this.host.beginSession();
    });
    return this.begun;
  }

  /**
   * Calls `handler` on each end signal until the returned disposable is
   * disposed (`once`: on the first only). While no handler is left the
   * process has no listener of ours, so a further signal ends it as Node
   * would: a second Ctrl-C after a `once` handler is a hard stop.
   */
  onEndSignal(handler: (signal: NodeJS.Signals) => void, { once = false }: { once?: boolean } = {}): { dispose(): void } {
    this.handlers.set(handler, once);
    this.listen(true);
    return {
      dispose: () => {
        this.handlers.delete(handler);
        if (this.handlers.size === 0) this.listen(false);
      },
    };
  }

  /** Stops every extension, then leaves no listener on the process (a signal during the stop is still heard). */
  async dispose(): Promise<void> {
    try {
      await this.host.dispose();
    } finally {
      this.handlers.clear();
      this.listen(false);
    }
  }

  private listen(on: boolean): void {
    if (on === this.listening) return;
    this.listening = on;
    for (const signal of END_SIGNALS) {
      if (on) process.on(signal, this.onSignal);
      else process.off(signal, this.onSignal);
    }
  }
}
