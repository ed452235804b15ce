/**
 * The zot extension wire format (see docs/PROTOCOL.md). One frame is one JSON
 * object on one line. Field names are snake_case on the wire and kept so here,
 * so a frame type is exactly what crosses the pipe.
 *
 * Naming follows zot's own extproto: `…FromExt` is sent by the extension,
 * `…FromHost` by the host; shared payloads carry no suffix.
 */

import type { AnswerFromHost, TervaFrameFromExt } from './terva.js';
import type { Widget } from './widgets.js';
import type { EventFrame, InterceptMap } from './events.js';

/**
 * The level this host claims in hello_ack: terva's 6. Every request up to it
 * is answered at once (really, or with section 20's frame where the front end
 * has no service) and every notice is acted on (docs/TERVA.md 15.3, point 6).
 * zot's own extensions store the number and never compare it (23.1).
 */
export const PROTOCOL_VERSION = 6;

/**
 * The zot release whose extension protocol this contract is (0.3.73 added
 * `tool_cancel` and interactive tools), sent as `zot_version` in hello_ack:
 * extensions gate features on it.
 */
export const ZOT_PROTOCOL_RELEASE = '0.3.73';

/**
 * Capabilities an extension may list in `hello`. `tool_cancel` and
 * `panel_resize` (an addition: only an extension that lists it is sent
 * panel sizes) change host behaviour.
 */
export const KNOWN_CAPABILITIES = ['commands', 'tools', 'events', 'panels', 'tool_cancel', 'panel_resize', 'call_tool'] as const;

/**
 * What the host says it can do in hello_ack (zot after v0.3.73): `call_tool`,
 * which zot's Go SDK checks for before it sends one (docs/ZOT.md 2.1).
 */
export const HOST_CAPABILITIES = ['call_tool'] as const;

/** zot's lifecycle event names (docs/ZOT.md 3.2); terva's are TERVA_EVENTS. A subscription to any of them is kept. */
export const KNOWN_EVENTS = [
  'session_start', 'session_end', 'user_prompt_submit', 'turn_start', 'turn_end', 'tool_call', 'tool_confirmation_requested',
  'permission_decision', 'tool_result', 'assistant_message', 'pre_compact', 'post_compact', 'subagent_start', 'subagent_stop',
] as const;

/** The only events that can be intercepted; `user_message` is terva's (docs/TERVA.md 16.14). */
export const INTERCEPTABLE_EVENTS = ['tool_call', 'turn_start', 'assistant_message', 'before_agent_start', 'user_message'] as const satisfies readonly (keyof InterceptMap)[];
export type InterceptableEvent = (typeof INTERCEPTABLE_EVENTS)[number];

/** Key names the host forwards to a focused panel; a typed character is `rune` with `text`. */
export const PANEL_KEYS = [
  'up', 'down', 'left', 'right', 'enter', 'esc', 'tab',
  'pageup', 'pagedown', 'home', 'end', 'backspace', 'delete', 'rune',
] as const;
export type PanelKey = (typeof PANEL_KEYS)[number];

export const COMMAND_ACTIONS = ['prompt', 'insert', 'display', 'open_panel', 'noop', 'tool_prompt'] as const;

/** A tool's exposure (docs/ZOT.md 2.3); any other value is not registered. */
export const TOOL_EXPOSURES = ['direct', 'codemode', 'deferred', 'model-only'] as const;
export type ToolExposure = (typeof TOOL_EXPOSURES)[number];

/** What a durable host may do with a call cut short by a crash (docs/ZOT.md 2.7); recorded, never acted on here. */
export const REPLAY_POLICIES = ['never', 'safe', 'idempotent', 'reconcile'] as const;
export type ReplayPolicy = (typeof REPLAY_POLICIES)[number];
export type CommandAction = (typeof COMMAND_ACTIONS)[number];

export const NOTIFY_LEVELS = ['info', 'success', 'warn', 'error'] as const;
export type NotifyLevel = (typeof NOTIFY_LEVELS)[number];

export type JsonObject = { [key: string]: unknown };

// ---- shared payloads ----

/** `format: "markdown"` is a display hint (zot after v0.3.73); the model gets the same text. */
export interface TextBlock { type: 'text'; text: string; format?: string }
/** `data` is base64 as sent; whether it decodes is checked where it is used (host/results/content.ts). */
export interface ImageBlock { type: 'image'; mime_type: string; data: string }
/** A block of a type this host does not know, as validation leaves it: its type, and the block as sent. */
export interface OtherBlock { type: 'other'; other_type: string; block: { type: string; [key: string]: unknown } }
/**
 * A block of a tool result, as validation produces it: a closed union, so
 * readers narrow on `type`. A missing `text`, `mime_type` or `data` is "",
 * as zot reads it; a block of any other type is an OtherBlock, shown as text
 * naming its type.
 */
export type ContentBlock = TextBlock | ImageBlock | OtherBlock;

export interface PanelSpec {
  id: string;
  title?: string;
  lines?: string[];
  footer?: string;
  /** terva: drawn by clients that can (src/protocol/widgets.ts); `lines` stay for the others. */
  widgets?: Widget[];
  /**
   * Additive field of this host: the `id` of the interactive `tool_call` this
   * panel serves. zot ignores it; here, dismissing the panel cancels that call.
   */
  tool_call_id?: string;
}

// ---- extension -> host ----

export interface HelloFromExt {
  type: 'hello';
  name: string;
  version?: string;
  capabilities?: string[];
  /** terva: the lowest host level it works with; absent or 0, any. */
  min_protocol?: number;
}
export interface RegisterCommandFromExt { type: 'register_command'; name: string; description?: string }
export interface RegisterToolFromExt {
  type: 'register_tool';
  name: string;
  description?: string;
  /** A JSON Schema object. Older extensions may send it as a JSON string. */
  schema?: unknown;
  deferred?: boolean;
  interactive?: boolean;
  /** terva (docs/TERVA.md 16.2): no side effects, when `authority` is empty. */
  read_only?: boolean;
  /** terva: one of AUTHORITY_CLASSES; any other value counts as side-effecting. */
  authority?: string;
  /** terva: kept advertised every turn under lazy tool loading. */
  essential?: boolean;
  /** terva: presentation hints, as sent; checked at registration (readDisplayHints). */
  display?: unknown;
  /** zot: the shape of `structured_content` (a JSON Schema); metadata only. */
  output_schema?: unknown;
  /** zot: code-mode discovery grouping; the tool's name does not change. */
  namespace?: string;
  namespace_description?: string;
  namespace_instructions?: string;
  /** zot: one of TOOL_EXPOSURES; set, it overrides `deferred`. */
  exposure?: string;
  /** zot: one of REPLAY_POLICIES. */
  replay?: string;
}
export interface SubscribeFromExt { type: 'subscribe'; events?: string[]; intercept?: string[] }
export interface ReadyFromExt { type: 'ready' }
export interface CommandResponseFromExt {
  type: 'command_response';
  id: string;
  action?: string;
  prompt?: string;
  insert?: string;
  display?: string;
  open_panel?: PanelSpec;
  error?: string;
  /** `tool_prompt`: the tool run before the model's turn, and its arguments (an object). */
  tool_name?: string;
  tool_args?: unknown;
}
export interface ToolResultFromExt {
  type: 'tool_result';
  id: string;
  content?: ContentBlock[];
  is_error?: boolean;
  /** zot: a JSON value for programmatic callers, never shown to the model. */
  structured_content?: unknown;
  /** zot: registered deferred tools this result makes available in its conversation. */
  activate_tools?: string[];
}
/** zot: run a tool through the host (opt-in capability `call_tool`); answered by a ToolResultFromHost. */
export interface CallToolFromExt { type: 'call_tool'; id: string; name?: string; args?: unknown; parent_id?: string }
/** zot: cancel that `call_tool`. */
export interface CallToolCancelFromExt { type: 'call_tool_cancel'; id: string }
export interface EventInterceptResponseFromExt {
  type: 'event_intercept_response';
  id: string;
  block?: boolean;
  reason?: string;
  modified_args?: JsonObject;
  replace_text?: string;
  /** zot's before_agent_start answer: the whole new system prompt (checked by the host). */
  system_prompt?: unknown;
}
export interface NotifyFromExt { type: 'notify'; level?: string; message: string }
export interface ClearNotesFromExt { type: 'clear_notes' }
export interface SubmitFromExt { type: 'submit'; text: string }
export interface SubmitSlashFromExt { type: 'submit_slash'; text: string }
export interface OpenPanelFromExt { type: 'open_panel'; panel: PanelSpec }
export interface PanelRenderFromExt { type: 'panel_render'; panel_id: string; title?: string; lines?: string[]; footer?: string; widgets?: Widget[] }
export interface PanelCloseFromExt { type: 'panel_close'; panel_id: string }
export interface ShutdownAckFromExt { type: 'shutdown_ack' }
/** zot's generic failure frame; with an `id` it answers that request. */
export interface ErrorFrame { type: 'error'; id?: string; message?: string }

export type FrameFromExt =
  | HelloFromExt | RegisterCommandFromExt | RegisterToolFromExt | SubscribeFromExt | ReadyFromExt
  | CommandResponseFromExt | ToolResultFromExt | EventInterceptResponseFromExt
  | NotifyFromExt | ClearNotesFromExt | SubmitFromExt | SubmitSlashFromExt
  | OpenPanelFromExt | PanelRenderFromExt | PanelCloseFromExt | ShutdownAckFromExt | ErrorFrame
  | CallToolFromExt | CallToolCancelFromExt | TervaFrameFromExt;

export type FrameFromExtType = FrameFromExt['type'];

// ---- host -> extension ----

export interface HelloAckFromHost {
  type: 'hello_ack';
  protocol_version: number;
  /** The zot release whose protocol the host speaks, not the host's own version. */
  zot_version: string;
  /** An addition: the host's own version. */
  host_version?: string;
  provider: string;
  model: string;
  cwd: string;
  extension_dir: string;
  data_dir: string;
  /** terva: the events this host really emits (absent: unknown). */
  supported_events?: string[];
  /** terva: the extension's resolved settings, keys sorted; absent when its manifest declares none. */
  config?: JsonObject;
  /** zot: what the host can do for the extension (HOST_CAPABILITIES). */
  capabilities?: string[];
}
export interface CommandInvokedFromHost { type: 'command_invoked'; id: string; name: string; args: string }
export interface ToolCallFromHost { type: 'tool_call'; id: string; name: string; args: JsonObject }
export interface ToolCancelFromHost { type: 'tool_cancel'; id: string }
/** zot: the answer to a `call_tool` (the same type as an extension's reply, the other way). */
export interface ToolResultFromHost { type: 'tool_result'; id: string; name: string; content: ContentBlock[]; is_error?: true; truncated?: true }
export type EventFromHost = EventFrame;
export type EventInterceptFromHost<K extends keyof InterceptMap = keyof InterceptMap> = { type: 'event_intercept'; id: string; event: K } & InterceptMap[K];
export interface PanelKeyFromHost { type: 'panel_key'; panel_id: string; key: PanelKey; text?: string }
/** terva: a widget action the user activated, sent on the key channel with its `action_id` as the key and no text. */
export interface PanelActionFromHost { type: 'panel_key'; panel_id: string; key: string }
export interface PanelResizeFromHost { type: 'panel_resize'; panel_id: string; width: number; height: number }
export interface PanelCloseFromHost { type: 'panel_close'; panel_id: string }
export interface ShutdownFromHost { type: 'shutdown' }

export type FrameFromHost =
  | HelloAckFromHost | CommandInvokedFromHost | ToolCallFromHost | ToolCancelFromHost | ToolResultFromHost
  | EventFromHost | EventInterceptFromHost | PanelKeyFromHost | PanelActionFromHost | PanelResizeFromHost
  | PanelCloseFromHost | ShutdownFromHost | AnswerFromHost;

/** One encode function for every outbound frame: compact JSON and the terminating LF. */
export function encodeFrame(frame: FrameFromHost): string {
  return JSON.stringify(frame) + '\n';
}
