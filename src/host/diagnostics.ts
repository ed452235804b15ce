/** What `doctor` and the diagnostics report show about each extension. */
import type { ExtensionState, HoldReason, StatusKind } from './extension/state.js';
import type { ExtensionRuntime } from './extension/runtime.js';
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
  tools: { name: string; description: string; active: boolean; interactive: boolean; shadowed_by?: string }[];
  subscriptions: { events: string[]; intercept: string[] };
  diagnostics: string[];
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
    tools: tools.filter((t) => t.extension === rt.name).map((t) => ({ name: t.name, description: t.description, active: t.active, interactive: t.interactive, ...(t.shadowedBy && { shadowed_by: t.shadowedBy }) })),
    subscriptions: { events: [...rt.events], intercept: [...rt.intercepts] },
    diagnostics: rt.problems.map((p) => p.message),
    dropped_diagnostics: rt.droppedProblems,
    late_replies: rt.lateReplies,
    error: rt.error ?? null,
  }));
}
