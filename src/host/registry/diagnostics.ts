/** What `doctor` and the diagnostics report show about each extension. */
import type { ExtensionState, HoldReason, StatusKind } from '../extension/state.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import type { Registry } from './registry.js';

export interface ExtensionReport {
  name: string;
  version: string | null;
  dir: string;
  source: string;
  log: string;
  state: ExtensionState;
  /** The kind of its state (state.ts), for code that switches on it. */
  kind: StatusKind;
  held_reason: HoldReason | null;
  assets_only: boolean;
  pid: number | null;
  capabilities: string[];
  commands: { name: string; description: string; active: boolean; shadowed_by?: string }[];
  tools: { name: string; description: string; active: boolean; interactive: boolean; shadowed_by?: string; withdrawn?: true }[];
  subscriptions: { events: string[]; intercept: string[] };
  diagnostics: string[];
  /** Frames it sent that this host accepts without acting on them yet, one line a type. */
  notes: string[];
  /** Its launcher's last progress line before hello, if it sent any. */
  bootstrap: string | null;
  /** terva: the size of its standing model context in UTF-8 bytes (0: none), its context cards' ids, its status segments. */
  model_context_bytes: number;
  context_cards: string[];
  status: { id: string; text: string }[];
  dropped_diagnostics: number;
  late_replies: number;
  error: string | null;
}

export function diagnostics(registry: Registry): ExtensionReport[] {
  const commands = registry.commands();
  const tools = registry.tools();
  return registry.all.map((rt: ExtensionRuntime) => ({
    name: rt.name,
    version: rt.version ?? null,
    dir: rt.dir,
    source: rt.found.source,
    log: rt.logPath,
    state: rt.state,
    kind: rt.status.kind,
    held_reason: rt.status.kind === 'held' ? rt.status.reason : null,
    assets_only: rt.found.assetsOnly,
    pid: rt.pid ?? null,
    capabilities: [...rt.capabilities],
    commands: commands.filter((c) => c.extension === rt.name).map((c) => ({ name: c.name, description: c.description, active: c.active, ...(c.shadowedBy && { shadowed_by: c.shadowedBy }) })),
    tools: tools.filter((t) => t.extension === rt.name).map((t) => ({ name: t.name, description: t.description, active: t.active, interactive: t.interactive, ...(t.shadowedBy && { shadowed_by: t.shadowedBy }), ...(t.withdrawn && { withdrawn: true as const }) })),
    subscriptions: { events: [...rt.events], intercept: [...rt.intercepts] },
    diagnostics: rt.problems.map((p) => p.message),
    notes: [...rt.notes],
    bootstrap: rt.bootstrap ?? null,
    model_context_bytes: rt.context ? Buffer.byteLength(rt.context) : 0,
    context_cards: [...rt.cards.keys()],
    status: [...rt.segments].map(([id, text]) => ({ id, text })),
    dropped_diagnostics: rt.droppedProblems,
    late_replies: rt.lateReplies,
    error: rt.error ?? null,
  }));
}
