/**
 * What terva's notices of every running extension come to, as front ends
 * show it (docs/TERVA.md 22): the standing model context (`@zot`'s system prompt,
 * an MCP server's instructions), the context cards of one model request, and
 * the status segments. Ordered by extension name as terva orders them, and
 * wrapped so that an extension's text can neither close its wrapper nor pose
 * as the host's.
 */
import type { JsonObject } from '../protocol/index.js';
import type { FoundExtension } from './discovery/discover.js';
import type { ExtensionView } from './extension/view.js';
import { isServing } from './extension/state.js';
import type { ContextCard } from './terva/notices.js';
import { resolveConfig } from './discovery/settings.js';
import { PLUGIN_MCP_PREFIXES } from './harnessNames.js';
import type { SettingsSource } from './options.js';

export type { ContextCard, TervaChange } from './terva/notices.js';
export { CONTEXT_CUT_MARKER, MAX_CONTEXT_BYTES, MAX_CARD_BYTES, MAX_SEGMENT_CHARS } from './terva/notices.js';
export type { TervaServices, HostToolAnswer, HostToolRequest, HostTools, SecretStore, SessionStore } from './terva/services.js';

/** All cards of one request together are bounded to this many UTF-8 bytes (terva: 8 KiB). */
export const MAX_CARDS_BYTES = 8192;

/** terva's one-line preamble: the block is background, not something to answer. */
export const CARDS_PREAMBLE = 'Live state from zot extensions, as background for this request; use it, do not answer it.';


/** One extension's status segments, in the order they came. */
export interface StatusEntry { extension: string; segments: { id: string; text: string }[] }

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Only what a connected extension said counts: a stopped one's context is gone with it. */
const live = (exts: readonly ExtensionView[]): ExtensionView[] => exts.filter((e) => isServing(e.status)).sort(byName);

/**
 * Text that cannot end its wrapper or open another: `&`, `<` and `>` as
 * entities, as terva escapes the blocks it folds into the system prompt.
 */
export function escapeForWrapper(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value: the same, and no quote. */
function attr(value: string): string {
  return escapeForWrapper(value).replace(/"/g, '&quot;');
}

/**
 * The standing context of the running extensions (`register_context`,
 * `refresh_context`), one element per extension naming it, ordered by name;
 * `only` keeps one extension's (an MCP server of its own). Empty when none.
 */
export function modelContext(exts: readonly ExtensionView[], only?: string): string {
  return live(exts)
    .filter((e) => e.context && (only === undefined || e.name === only))
    .map((e) => `<extension-context source="${attr(e.name)}">\n${escapeForWrapper(e.context!)}\n</extension-context>`)
    .join('\n');
}

/**
 * The live cards of every running extension, for the end of one model
 * request: ordered by priority, extension name, card id; bounded as a whole,
 * the cards beyond the bound replaced by one note. undefined when none.
 */
export function contextCards(exts: readonly ExtensionView[]): string | undefined {
  const all: { ext: string; card: Readonly<ContextCard> }[] = [];
  for (const e of live(exts)) for (const card of e.cards.values()) all.push({ ext: e.name, card });
  if (all.length === 0) return undefined;
  all.sort((a, b) => a.card.priority - b.card.priority || (a.ext < b.ext ? -1 : a.ext > b.ext ? 1 : 0) || (a.card.id < b.card.id ? -1 : a.card.id > b.card.id ? 1 : 0));
  const parts = [CARDS_PREAMBLE];
  let used = Buffer.byteLength(CARDS_PREAMBLE);
  let omitted = 0;
  for (const { ext, card } of all) {
    const label = card.label ? ` label="${attr(card.label)}"` : '';
    const blocking = card.blocking ? ' blocking="true"' : '';
    const note = card.blocking ? '\n(unfinished work: review it before you finish)' : '';
    const block = `<extension-card source="${attr(ext)}" id="${attr(card.id)}"${label}${blocking}>\n${escapeForWrapper(card.text)}${note}\n</extension-card>`;
    const size = Buffer.byteLength(block) + 1;
    if (used + size > MAX_CARDS_BYTES) { omitted++; continue; }
    parts.push(block);
    used += size;
  }
  if (omitted) parts.push(`(${omitted} more card${omitted === 1 ? '' : 's'} omitted: the cards are bounded to ${MAX_CARDS_BYTES} bytes)`);
  return parts.join('\n');
}

/** The status segments of every running extension that shows any, ordered by extension name. */
export function statusSegments(exts: readonly ExtensionView[]): StatusEntry[] {
  return live(exts)
    .filter((e) => e.segments.size > 0)
    .map((e) => ({ extension: e.name, segments: [...e.segments].map(([id, text]) => ({ id, text })) }));
}

/** Names VS Code's agent and Claude Code give the tools of zot's own MCP servers (hooks/mcpNames.ts). */
const ZOT_MCP_NAME = /^mcp_{1,2}zot/i;

/** Whether a tool name is one of zot's own, by its name or a name an MCP bridge or harness gives it: never a host tool. */
export function isZotTool(name: string, registry: { tool(name: string): unknown }): boolean {
  const lower = name.toLowerCase();
  return registry.tool(name) !== undefined || ZOT_MCP_NAME.test(name) || PLUGIN_MCP_PREFIXES.some((p) => lower.startsWith(p));
}

/** An extension's resolved settings (docs/TERVA.md 17.1); each secret value read is handed to `keep`, which hides it from traces and logs. */
export function settingsOf(found: FoundExtension, source: SettingsSource | undefined, keep: (secret: string) => void): JsonObject | undefined {
  const secret = (key: string): string | undefined => {
    const v = source?.secret(found.name, key);
    if (v) keep(v);
    return v;
  };
  return resolveConfig(found.manifest?.config ?? [], source?.values(found.name), secret);
}
