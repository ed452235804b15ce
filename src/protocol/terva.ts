/**
 * The frames zot's fork terva added to the same wire, up to its level 6
 * (docs/TERVA.md, sections 14 to 24). This host reads every one of them; which
 * of them it acts on is the host's business, not this file's. What is here
 * is what the wire fixes: the frames' shapes, the words of the "not
 * supported" answers, the authority classes and the display hints' bounds.
 */
import type { ImageBlock, JsonObject, TextBlock } from './frames.js';

/** terva's own level, for the words of a refusal; this host claims PROTOCOL_VERSION. */
export const TERVA_PROTOCOL_VERSION = 6;

/**
 * terva's event names beyond zot's five: a subscription to any of
 * them is kept whether or not this host emits it yet, so it never counts
 * against the bound on unknown names.
 */
export const TERVA_EVENTS = [
  'session_end', 'run_end', 'tool_result', 'user_message', 'workspace_changed',
  'compact_start', 'transcript_compacted', 'config_update',
] as const;

/** The authority classes of a tool; any other value counts as side-effecting (docs/TERVA.md 16.2, 24). */
export const AUTHORITY_CLASSES = [
  'local-read', 'local-data', 'workspace-mutation', 'process-execution', 'network-read', 'external-mutation',
] as const;
export type AuthorityClass = (typeof AUTHORITY_CLASSES)[number];

/** How a rich client may show a tool's result. */
export const DISPLAY_BODIES = ['text', 'json', 'diff', 'table'] as const;
export type DisplayBody = (typeof DISPLAY_BODIES)[number];

/** A subject longer than this many UTF-8 bytes is dropped whole, never cut. */
export const MAX_DISPLAY_SUBJECT_BYTES = 200;
/** At most this many argument keys are masked on an extension's say (the client's own list always is). */
export const MAX_DISPLAY_REDACT = 16;

/** Presentation hints of a tool, as they are left once bad ones are dropped. */
export interface DisplayHints { subject?: string; body?: DisplayBody; redact?: string[] }

// ---- extension -> host, beyond level 1 ----

export interface BootstrapFromExt { type: 'bootstrap'; message?: string }
export interface RegisterContextFromExt { type: 'register_context'; text?: string }
export interface RefreshContextFromExt { type: 'refresh_context'; text?: string }
export interface ContextCardFromExt { type: 'context_card'; id: string; label?: string; text?: string; priority?: number; blocking?: boolean }
export interface ContextCardClearFromExt { type: 'context_card_clear'; id: string }
export interface StatusSegmentFromExt { type: 'status_segment'; id: string; text?: string }
export interface SetWithdrawnToolsFromExt { type: 'set_withdrawn_tools'; tools?: string[]; all?: boolean }
export interface RegisterConnectorFromExt { type: 'register_connector' }
export interface ChatFromExt { type: 'chat'; id: string; frame?: JsonObject }
export interface ChatDownFromExt { type: 'chat_down'; id: string; error?: string }

export interface HostToolCallFromExt { type: 'host_tool_call'; id: string; name: string; args?: JsonObject; silent?: boolean }
export interface ListSessionsFromExt { type: 'list_sessions'; id: string; project_id?: string }
export interface ReadSessionFromExt { type: 'read_session'; id: string; session_id: string }
export interface SecretSetFromExt { type: 'secret_set'; id: string; key: string; value: string }
export interface SecretGetFromExt { type: 'secret_get'; id: string; key: string }
export interface SecretDeleteFromExt { type: 'secret_delete'; id: string; key: string }
export interface SecretListFromExt { type: 'secret_list'; id: string }

/** Requests an extension sends the host: each gets exactly one answer, at once. */
export type RequestFromExt =
  | HostToolCallFromExt | ListSessionsFromExt | ReadSessionFromExt
  | SecretSetFromExt | SecretGetFromExt | SecretDeleteFromExt | SecretListFromExt;
export type RequestFromExtType = RequestFromExt['type'];

/** Notices of levels 2 to 5: no id, no answer. */
export type NoticeFromExt =
  | RegisterContextFromExt | RefreshContextFromExt | ContextCardFromExt | ContextCardClearFromExt
  | StatusSegmentFromExt | SetWithdrawnToolsFromExt | RegisterConnectorFromExt | ChatFromExt | ChatDownFromExt;
export type NoticeFromExtType = NoticeFromExt['type'];

export type TervaFrameFromExt = BootstrapFromExt | NoticeFromExt | RequestFromExt;

// ---- host -> extension: the answers ----

export interface HostToolResultFromHost { type: 'host_tool_result'; id: string; content: (TextBlock | ImageBlock)[]; is_error?: boolean }
/** One of the active project's sessions, newest first (docs/TERVA.md 17.3). */
export interface SessionEntry { session_id: string; title?: string; preview?: string; messages?: number; mtime?: number }
export interface SessionListFromHost { type: 'session_list'; id: string; sessions: SessionEntry[] | null }
/** A session reduced to roles and text (docs/TERVA.md 17.4). */
export interface SessionMessage { role: string; text: string }
export interface SessionDataFromHost { type: 'session_data'; id: string; messages: SessionMessage[] | null; not_found?: boolean }
export interface SecretAckFromHost { type: 'secret_ack'; id: string; error?: string }
export interface SecretValueFromHost { type: 'secret_value'; id: string; found: boolean; value?: string; error?: string }
export interface SecretKeysFromHost { type: 'secret_keys'; id: string; keys: string[] | null; error?: string }

export type AnswerFromHost =
  | HostToolResultFromHost | SessionListFromHost | SessionDataFromHost | SecretAckFromHost | SecretValueFromHost | SecretKeysFromHost;

const NO_SECRETS = 'this host does not broker extension secrets';

/**
 * terva's answer when the service behind a request is missing (docs/TERVA.md
 * section 20), key for key in its order: extensions and their tests compare
 * the bytes. One function per request type, so a type without one does not
 * compile.
 */
const NOT_SUPPORTED: { [T in RequestFromExtType]: (id: string) => AnswerFromHost } = {
  host_tool_call: (id) => ({ type: 'host_tool_result', id, content: [{ type: 'text', text: 'host tool calls are not supported by this host' }], is_error: true }),
  list_sessions: (id) => ({ type: 'session_list', id, sessions: null }),
  // The same frame as "not found", so an extension cannot tell the two apart.
  read_session: (id) => ({ type: 'session_data', id, messages: null, not_found: true }),
  secret_set: (id) => ({ type: 'secret_ack', id, error: NO_SECRETS }),
  secret_delete: (id) => ({ type: 'secret_ack', id, error: NO_SECRETS }),
  secret_get: (id) => ({ type: 'secret_value', id, found: false, error: NO_SECRETS }),
  secret_list: (id) => ({ type: 'secret_keys', id, keys: null, error: NO_SECRETS }),
};

export function isRequestType(type: string | undefined): type is RequestFromExtType {
  return type !== undefined && Object.prototype.hasOwnProperty.call(NOT_SUPPORTED, type);
}

/** The section 20 answer to a request of that type with that id. */
export function notSupported(type: RequestFromExtType, id: string): AnswerFromHost {
  return NOT_SUPPORTED[type](id);
}

/** What a tool's authority comes to: its class, `local-read` for `read_only` alone, else undefined (side-effecting). */
export function authorityOf(authority: string | undefined, readOnly: boolean | undefined): AuthorityClass | undefined {
  if (authority) return (AUTHORITY_CLASSES as readonly string[]).includes(authority) ? (authority as AuthorityClass) : undefined;
  return readOnly === true ? 'local-read' : undefined;
}

/**
 * A tool's `display` hints with the bad ones dropped, and what was dropped
 * and why: a bad hint never costs the registration, and a hint with nothing
 * usable left is no hint (docs/TERVA.md 16.2).
 */
export function readDisplayHints(raw: unknown): { hints?: DisplayHints; dropped: string[] } {
  const dropped: string[] = [];
  if (raw === undefined || raw === null) return { dropped };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { dropped: ['"display" is not an object; no hints kept'] };
  const d = raw as Record<string, unknown>;
  const hints: DisplayHints = {};
  if (d.subject !== undefined && d.subject !== null && d.subject !== '') {
    if (typeof d.subject !== 'string') dropped.push('"display.subject" is not a string; dropped');
    else if (utf8Length(d.subject) > MAX_DISPLAY_SUBJECT_BYTES) dropped.push(`"display.subject" is longer than ${MAX_DISPLAY_SUBJECT_BYTES} bytes; dropped`);
    else hints.subject = d.subject;
  }
  if (d.body !== undefined && d.body !== null && d.body !== '') {
    if ((DISPLAY_BODIES as readonly unknown[]).includes(d.body)) hints.body = d.body as DisplayBody;
    else dropped.push(`"display.body" ${typeof d.body === 'string' ? `"${d.body.slice(0, 40)}"` : 'that is not a string'} is none of ${DISPLAY_BODIES.join(', ')}; dropped`);
  }
  if (d.redact !== undefined && d.redact !== null) {
    if (!Array.isArray(d.redact)) dropped.push('"display.redact" is not a list; dropped');
    else {
      const names = d.redact.filter((k): k is string => typeof k === 'string' && k !== '');
      if (names.length < d.redact.length) dropped.push(`"display.redact": ${d.redact.length - names.length} empty or non-string names dropped`);
      if (names.length > MAX_DISPLAY_REDACT) dropped.push(`"display.redact": only the first ${MAX_DISPLAY_REDACT} of ${names.length} names kept`);
      if (names.length) hints.redact = names.slice(0, MAX_DISPLAY_REDACT);
    }
  }
  return Object.keys(hints).length ? { hints, dropped } : { dropped };
}

/**
 * Argument keys whose values a client always masks, whatever a tool's
 * `display.redact` says (it can add to them, never take any away). Matched
 * case-insensitively, as a whole key or as its last `_`/`-` part.
 */
export const ALWAYS_REDACTED = ['token', 'secret', 'password', 'passwd', 'api_key', 'apikey', 'authorization', 'auth', 'credential', 'credentials', 'private_key', 'cookie'] as const;

/** The mask a redacted value shows. */
export const MASK = '••••';

/** Whether an argument's value is masked: the client's own list, or one of the tool's `redact` keys. */
export function isRedactedKey(key: string, redact: readonly string[] = []): boolean {
  if (redact.includes(key)) return true;
  const k = key.toLowerCase();
  return ALWAYS_REDACTED.some((r) => k === r || k.endsWith(`_${r}`) || k.endsWith(`-${r}`));
}

/**
 * A call's subject line from a tool's `display.subject` template: each
 * `{key}` is the call's top-level argument of that name as plain text (a
 * missing one is empty, one that is not a string is its JSON, a redacted
 * one the mask), on one line, at most 200 characters.
 */
export function displaySubject(template: string, args: JsonObject, redact: readonly string[] = []): string {
  const filled = template.replace(/\{([^{}]*)\}/g, (_m, key: string) => {
    if (!Object.prototype.hasOwnProperty.call(args, key)) return '';
    if (isRedactedKey(key, redact)) return MASK;
    const v = args[key];
    return typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
  });
  // eslint-disable-next-line no-control-regex
  const flat = filled.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

/** Bytes of `s` in UTF-8, without encoding it: this layer has no Buffer. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
