/**
 * Every extension found, in load order, and the names their commands and
 * tools hold. Load order settles every name: the first extension to claim a
 * name holds it, whenever it registered. Entries found by name carry the
 * runtime itself, so a call never looks the extension up again.
 */
import type { ExtensionRuntime } from '../extension/runtime.js';
import type { ToolRegistration } from '../extension/registrations.js';

export interface CommandEntry {
  name: string;
  description: string;
  extension: string;
  active: boolean;
  /** The extension that holds the name when this entry is inactive. */
  shadowedBy?: string;
}

export interface ToolEntry extends ToolRegistration {
  extension: string;
  active: boolean;
  /** Hidden by its extension (terva's set_withdrawn_tools): it keeps its name, but no list shows it and no call reaches it. */
  withdrawn: boolean;
  shadowedBy?: string;
}

/** A tool the model and people may be offered: it holds its name and its extension has not withdrawn it. */
export function isOffered(t: ToolEntry): boolean {
  return t.active && !t.withdrawn;
}

/** An active entry and the runtime that provides it. */
export interface Provided<E> { entry: E; rt: ExtensionRuntime }

interface Index {
  commands: CommandEntry[];
  tools: ToolEntry[];
  commandIndex: Map<string, Provided<CommandEntry>>;
  toolIndex: Map<string, Provided<ToolEntry>>;
}

export class Registry {
  private runtimes: ExtensionRuntime[] = [];
  private index: Index | undefined;
  private eventPending = false;
  private readonly reportedShadows = new Set<string>();

  /** `changed` fires once per burst of changes, after they settle. */
  constructor(private readonly changed: () => void) {}

  get all(): readonly ExtensionRuntime[] {
    return this.runtimes;
  }

  get(name: string): ExtensionRuntime | undefined {
    return this.runtimes.find((r) => r.name === name);
  }

  replace(runtimes: ExtensionRuntime[]): void {
    this.runtimes = runtimes;
    this.reportedShadows.clear();
    this.invalidate();
  }

  /** A new list that keeps some runtimes: what was said about their shadowed names stays said. */
  update(runtimes: ExtensionRuntime[]): void {
    this.runtimes = runtimes;
    this.invalidate();
  }

  commands(): readonly CommandEntry[] {
    return this.compute().commands;
  }

  tools(): readonly ToolEntry[] {
    return this.compute().tools;
  }

  /** The active command of that name (case-insensitive). */
  command(name: string): Provided<CommandEntry> | undefined {
    return this.compute().commandIndex.get(name.toLowerCase());
  }

  /** The active tool of that name (exact). */
  tool(name: string): Provided<ToolEntry> | undefined {
    return this.compute().toolIndex.get(name);
  }

  invalidate(): void {
    this.index = undefined;
    if (this.eventPending) return;
    this.eventPending = true;
    setImmediate(() => {
      this.eventPending = false;
      this.compute();
      this.changed();
    });
  }

  private compute(): Index {
    if (this.index) return this.index;
    const idx: Index = { commands: [], tools: [], commandIndex: new Map(), toolIndex: new Map() };
    for (const rt of this.runtimes) {
      const s = rt.status;
      if (s.kind !== 'running') continue; // serving: said hello over a connection still open
      for (const [key, c] of rt.commands) {
        const winner = idx.commandIndex.get(key);
        const entry: CommandEntry = { name: c.name, description: c.description, extension: rt.name, active: !winner };
        if (winner) {
          entry.shadowedBy = winner.rt.name;
          this.reportShadow(rt, 'command', c.name, winner.rt.name);
        } else idx.commandIndex.set(key, { entry, rt });
        idx.commands.push(entry);
      }
      for (const t of rt.tools.values()) {
        const winner = idx.toolIndex.get(t.name);
        const entry: ToolEntry = { ...t, extension: rt.name, active: !winner, withdrawn: rt.withdrawn.has(t.name) };
        if (winner) {
          entry.shadowedBy = winner.rt.name;
          this.reportShadow(rt, 'tool', t.name, winner.rt.name);
        } else idx.toolIndex.set(t.name, { entry, rt });
        idx.tools.push(entry);
      }
    }
    this.index = idx;
    return idx;
  }

  private reportShadow(loser: ExtensionRuntime, kind: string, name: string, winner: string): void {
    const key = `${loser.name}\0${kind}\0${name}\0${winner}`;
    if (this.reportedShadows.has(key)) return;
    this.reportedShadows.add(key);
    loser.addProblem(`${kind} "${name}" is shadowed by extension "${winner}", which comes first in load order`);
  }
}
