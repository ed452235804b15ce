/**
 * Every lifecycle event and intercept this host sends, name by name, with its
 * payload: zot's (docs/ZOT.md 3) and terva's (docs/TERVA.md 18) in one closed
 * map, so an event cannot go out under a name neither zot nor terva knows,
 * with a field neither names, or in two shapes. Where both use one name
 * (`tool_result`, `session_start`, `session_end`) the payload is the union of
 * both hosts' fields (ZOT.md 5, option A): each extension reads its own
 * and skips the rest, as both hosts' decoders do.
 */
import type { ContentBlock, JsonObject } from './frames.js';
import { utf8Length } from './terva.js';

/** Fields every event carries (ZOT.md 3.1): the host adds them as it sends. */
export interface EventCommon {
  /** The active session's id; absent before any session started. */
  session_id?: string;
  /** The session's working directory (the host's when it has none). */
  cwd: string;
  /** One counter for the whole host, raised for every event emitted, heard or not; from 1. */
  sequence: number;
  /** The extension whose `call_tool` caused this tool call (ZOT.md 2.6). */
  origin_extension?: string;
}

/** How a tool call ended, in zot's words (ZOT.md 3.3). */
export type ToolStatus = 'completed' | 'failed' | 'blocked' | 'cancelled' | 'timed_out';

/** zot's `result` of a `tool_result` event: bounded like a `call_tool` answer. */
export interface ToolResultBody { content: ContentBlock[]; is_error: boolean; truncated?: boolean }

/** Why a session stopped being the active one (ZOT.md 3.2). */
export type SessionEndReason = 'shutdown' | 'session_switch' | 'cwd_change';

/** terva's identity of a session (TERVA.md 18), beside zot's common fields. */
export interface SessionIdentity { session_path?: string; session_title?: string; project_id?: string }

export type PermissionDecision = 'approved' | 'denied' | 'cancelled';
export type PermissionSource = 'user' | 'remembered' | 'policy' | 'yolo';

/** Each event's own fields, by name. */
export interface EventMap {
  session_start: SessionIdentity;
  session_end: SessionIdentity & { reason: SessionEndReason };
  /** zot: model input was accepted. This host never queues, so `queued` is never sent. */
  user_prompt_submit: { text?: string; image_count?: number };
  /** terva: the user's prompt as its interceptors left it. */
  user_message: { text: string };
  turn_start: { step: number };
  turn_end: { stop: 'end' | 'tool_use' | 'error' | 'aborted'; error?: string };
  tool_call: { tool_id: string; tool_name: string; tool_args: JsonObject };
  tool_confirmation_requested: { tool_id: string; tool_name: string; tool_preview: string };
  permission_decision: {
    tool_id: string; tool_name: string; decision: PermissionDecision; source: PermissionSource;
    stage: 'pre_execution' | 'tool_execution'; reason?: string;
  };
  /**
   * zot's fields (`tool_args`, `status`, `executed`, `result`) and terva's
   * (`text`, `is_error`, omitted when false), for every ending of a call.
   */
  tool_result: {
    /** The effective arguments; `tool_args_raw` (as JSON) instead when they are not an object. */
    tool_id: string; tool_name: string; tool_args?: JsonObject; tool_args_raw?: string;
    status: ToolStatus; executed: boolean; result: ToolResultBody;
    text: string; is_error?: true;
  };
  assistant_message: { text?: string };
  run_end: { error?: string };
  workspace_changed: { files: { path: string; change: string }[] };
  config_update: { config: JsonObject };
}

export type EventName = keyof EventMap;

/** An event frame as it crosses the wire. */
export type EventFrame<K extends EventName = EventName> = K extends EventName ? { type: 'event'; event: K } & EventCommon & EventMap[K] : never;

/** Each intercept's request fields, by name (ZOT.md 3.6, TERVA.md 16.14). */
export interface InterceptMap {
  tool_call: { tool_id: string; tool_name: string; tool_args: JsonObject; origin_extension?: string };
  turn_start: { step: number };
  assistant_message: { text: string };
  before_agent_start: { system_prompt: string; session_id?: string; agent_run_id: string; cwd: string; provider: string; model: string };
  user_message: { text: string };
}

/** The events this host really emits (hello_ack's `supported_events`), every one a key of EventMap. */
export const SUPPORTED_EVENTS = [
  'session_start', 'session_end', 'user_prompt_submit', 'user_message', 'turn_start', 'turn_end', 'tool_call',
  'permission_decision', 'tool_result', 'assistant_message', 'run_end', 'workspace_changed', 'config_update',
] as const satisfies readonly EventName[];

/** Names of both families that this host never has cause to emit (compaction, swarms): a subscription to them is kept. */
export const QUIET_EVENTS = ['pre_compact', 'post_compact', 'subagent_start', 'subagent_stop', 'compact_start', 'transcript_compacted'] as const;

/** The bound of a `tool_result` event's `result` and a `call_tool` answer (ZOT.md 2.2 step 5). */
export const MAX_RESULT_BYTES = 256 * 1024;
export const MAX_RESULT_BLOCKS = 128;

/** The longest prefix of `text` whose UTF-8 encoding fits `bytes`, never cutting a character in two. */
export function cutUtf8(text: string, bytes: number): string {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (n + size > bytes) return text.slice(0, i);
    n += size;
    if (pair) i++;
  }
  return text;
}

/**
 * Content bounded as zot bounds a `call_tool` answer and an event's result
 * (ZOT.md 2.2 step 5): text, base64 data and MIME types together at most
 * MAX_RESULT_BYTES, at most MAX_RESULT_BLOCKS blocks, text cut on a character
 * boundary, an image that does not fit and any block of another type
 * dropped; `truncated` when anything was cut or dropped. Text blocks keep
 * `format`.
 */
export function boundResult(blocks: readonly ContentBlock[]): { content: ContentBlock[]; truncated: boolean } {
  const content: ContentBlock[] = [];
  let left = MAX_RESULT_BYTES;
  let truncated = false;
  for (const b of blocks) {
    if (content.length >= MAX_RESULT_BLOCKS || left <= 0) { truncated = true; break; }
    if (b.type === 'text') {
      const size = utf8Length(b.text);
      if (size <= left) { content.push(b); left -= size; continue; }
      content.push({ ...b, text: cutUtf8(b.text, left) });
      truncated = true;
      left = 0;
    } else if (b.type === 'image') {
      const size = b.data.length + b.mime_type.length;
      if (size <= left) { content.push(b); left -= size; } else truncated = true;
    } else truncated = true;
  }
  return { content, truncated };
}
