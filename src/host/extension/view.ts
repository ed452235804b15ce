/** An extension as front ends see it: read-only; changes go through the host's methods. */
import type { FoundExtension } from '../discovery/discover.js';
import type { ContextCard } from '../terva/notices.js';
import type { CommandRegistration, ToolRegistration } from './registrations.js';
import type { StatusView } from './state.js';

export interface ExtensionView {
  readonly name: string;
  readonly dir: string;
  readonly found: Readonly<FoundExtension>;
  readonly logPath: string;
  readonly version: string | undefined;
  readonly capabilities: readonly string[];
  /** The state, to switch on; its flat name is `stateOf(view)`, whether it serves `isServing(view.status)` (state.ts). */
  readonly status: StatusView;
  /** Why it failed, is held, disabled or restarting. */
  readonly error: string | undefined;
  readonly startable: boolean;
  readonly supportsCancel: boolean;
  readonly pid: number | undefined;
  readonly pendingCount: number;
  readonly commands: ReadonlyMap<string, Readonly<CommandRegistration>>;
  readonly tools: ReadonlyMap<string, Readonly<ToolRegistration>>;
  readonly events: ReadonlySet<string>;
  readonly intercepts: ReadonlySet<string>;
  readonly problems: readonly { time: number; message: string }[];
  /** Its launcher's last `bootstrap` line (docs/TERVA.md 15.4) in its latest launch. */
  readonly bootstrap: string | undefined;
  /** What it sent that this host accepts but does not act on yet, once per frame type; not problems. */
  readonly notes: readonly string[];
  readonly droppedProblems: number;
  /** terva: its standing model context (register_context, refresh_context), bounded. */
  readonly context: string | undefined;
  /** terva: its live context cards by id. */
  readonly cards: ReadonlyMap<string, Readonly<ContextCard>>;
  /** terva: its status segments by id. */
  readonly segments: ReadonlyMap<string, string>;
  /** terva: the names of its tools it has withdrawn. */
  readonly withdrawn: ReadonlySet<string>;
  readonly lateReplies: number;
}
