/**
 * Tool names as MCP clients see them. The MCP specification asks for
 * `[A-Za-z0-9._-]{1,128}`; VS Code and the model APIs behind it accept only
 * `[A-Za-z0-9_-]{1,64}`, so that is the rule here. A zot tool name that
 * already follows it is served as it is. Any other (a dot, a space, control
 * characters, bidi overrides, `../../etc/passwd`, 10 KB of text) is mapped
 * once, where it enters the MCP surface, to a safe name: each run of other
 * characters becomes `_`, and an over-long name is cut and given a hash of the
 * whole name so two long names stay apart. A mapped name that another tool
 * already has is refused, never merged.
 */
import { createHash } from 'node:crypto';
import { isOffered, type HostReader, type ToolEntry } from '../../host/index.js';

export const MCP_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX = 64;

export interface NamedTool { readonly name: string }

/** Read-only: servedTools hands the same table to every caller until the registry changes. */
export interface ToolNameTable<T extends NamedTool> {
  /** Served name -> tool, in the order given (valid names first). */
  readonly served: ReadonlyMap<string, T>;
  /** Tools whose name had to change, with the name they are served under. */
  readonly mapped: readonly { tool: T; as: string }[];
  /** Tools not served, with the reason. */
  readonly refused: readonly { tool: T; reason: string }[];
}

/** The safe form of a name; the name itself when it is already safe. */
function safeToolName(name: string): string {
  if (MCP_TOOL_NAME.test(name)) return name;
  const base = name.replace(/[^A-Za-z0-9_-]+/g, '_');
  if (base.length <= MAX) return base;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${base.slice(0, MAX - 9)}_${hash}`;
}

/**
 * Names for a list of tools: valid names claim theirs first, so a mapping
 * never takes a real tool's name. A `reserved` name (the host's own tools on
 * that server) is no tool's, as given or as mapped.
 */
function toolNameTable<T extends NamedTool>(tools: readonly T[], reserved: readonly string[] = []): ToolNameTable<T> {
  const served = new Map<string, T>();
  const mapped: { tool: T; as: string }[] = [];
  const refused: { tool: T; reason: string }[] = [];
  const others: T[] = [];
  const claim = (t: T, as: string): boolean => {
    if (!reserved.includes(as)) return false;
    refused.push({ tool: t, reason: `the name "${as}" is the host's own, for the views of its panels in the chat` });
    return true;
  };
  for (const t of tools) {
    if (!MCP_TOOL_NAME.test(t.name)) others.push(t);
    else if (!claim(t, t.name)) served.set(t.name, t);
  }
  for (const t of others) {
    const as = safeToolName(t.name);
    const holder = served.get(as);
    if (claim(t, as)) continue;
    if (holder) {
      refused.push({ tool: t, reason: `its name is not a valid MCP tool name, and the safe form "${as}" is taken by another tool` });
    } else {
      served.set(as, t);
      mapped.push({ tool: t, as });
    }
  }
  return { served, mapped, refused };
}

/**
 * The tables built so far, by the host's tool list they were built from and
 * the kind of server they are for. The registry makes a new list at each
 * change (and its entries are not changed after), so a list still here has
 * what it had: a table is built once per registry change and kind of server,
 * not per call, and goes with its list.
 */
const tables = new WeakMap<readonly ToolEntry[], Map<string, ToolNameTable<ToolEntry>>>();
let builds = 0;

/** How many name tables this process has built (the tests and the bench count them). */
export function nameTableBuilds(): number {
  return builds;
}

/**
 * The tools an MCP server of this host serves, under their MCP names: the
 * active ones its extension has not withdrawn (with `withdrawn`, those as
 * well), interactive ones only where a UI can answer them (the host's, or a
 * client that elicits).
 */
export function servedTools(host: HostReader, clientElicits = false, scope?: string, withdrawn = false, reserved: readonly string[] = []): ToolNameTable<ToolEntry> {
  const tools = host.tools();
  const ui = host.interactive || clientElicits;
  const key = JSON.stringify([ui, withdrawn, scope ?? null, reserved]);
  let byKind = tables.get(tools);
  if (!byKind) tables.set(tools, (byKind = new Map()));
  let table = byKind.get(key);
  if (!table) {
    builds++;
    table = toolNameTable(tools.filter((t) => (withdrawn ? t.active : isOffered(t)) && (scope === undefined || t.extension === scope) && (ui || !t.interactive)), reserved);
    byKind.set(key, table);
  }
  return table;
}

/** Whether an MCP server of this host serves a tool under `name`. */
export function servesTool(host: HostReader, name: string): boolean {
  return servedTools(host).served.has(name);
}
