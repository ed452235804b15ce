/**
 * A server's `instructions` carry the standing model context of the
 * extensions it serves (register_context, refresh_context), read when the
 * server is made: a 2025 session at `initialize`, a 2026 server per request
 * or connection. MCP clients read instructions once per connection, so a
 * later change reaches a connected client only when it reconnects. The
 * servers made from one Instructions tell the log so, once per extension,
 * when its context changes while a client told other text is connected; once
 * a client connects again, the next change is told again.
 */
import { isServing } from '../../host/index.js';
import type { HostSource } from './source.js';
import { serverIdentity } from './tools.js';

interface Told {
  readonly scope: string | undefined;
  readonly context: string;
}

export class Instructions {
  /** The servers whose clients were told their instructions and may still hold them. */
  private readonly live = new Set<Told>();
  /** Extensions whose change was reported, until a client connects again. */
  private readonly reported = new Set<string>();
  private readonly sub: { dispose(): void } | undefined;

  constructor(
    private readonly source: HostSource,
    private readonly log: (line: string) => void,
  ) {
    this.sub = source.onDidChangeTerva?.((e) => {
      if (e.what === 'context') this.changed(e.extension.name);
    });
  }

  /**
   * Who a server of `scope` is, with its instructions as they are now; call
   * `told` once its client has them (until the returned handle is disposed,
   * the server counts as connected).
   */
  identity(scope: string | undefined): ReturnType<typeof serverIdentity> & { told(): { dispose(): void } } {
    const context = this.source.host.modelContext(scope);
    const id = serverIdentity(scope, context);
    return {
      ...id,
      told: () => {
        const entry: Told = { scope, context };
        this.live.add(entry);
        // A client connected afresh: a later change of what it serves is worth telling again.
        if (scope === undefined) this.reported.clear();
        else this.reported.delete(scope);
        return { dispose: () => void this.live.delete(entry) };
      },
    };
  }

  dispose(): void {
    this.sub?.dispose();
    this.live.clear();
  }

  private changed(extension: string): void {
    // A context gone with its extension's process is no change to report; its tools go with it.
    const rt = this.source.host.get(extension);
    if (this.reported.has(extension) || !rt || !isServing(rt.status)) return;
    for (const s of this.live) {
      if (s.scope !== undefined && s.scope !== extension) continue;
      if (this.source.host.modelContext(s.scope) === s.context) continue;
      this.reported.add(extension);
      this.log(`MCP: extension "${extension}" changed its model context; MCP clients read a server's instructions once per connection, so the clients connected now keep the text they were given until they reconnect`);
      return;
    }
  }
}
