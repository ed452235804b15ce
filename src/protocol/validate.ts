/**
 * Parsing and validation of inbound frames. Every problem becomes a
 * `FrameProblem` naming what is wrong; nothing here throws, so one bad line
 * never stops the stream.
 */
import { MAX_JSON_DEPTH, MAX_VALUE_DEPTH, deeperThan } from './bounds.js';
import type { ContentBlock, FrameFromExt, FrameFromExtType, JsonObject } from './frames.js';
import { singleLine } from './text.js';
import { readWidgets } from './widgets.js';

export type ParseResult =
  | { ok: true; frame: FrameFromExt }
  /** `type` and `id` are set when the frame got far enough to name them, so a reply can still fail its request. */
  | { ok: false; problem: string; type?: string; id?: string };

type FieldKind = 'string' | 'boolean' | 'string[]' | 'panel' | 'blocks' | 'widgets' | 'int' | 'count' | 'object' | 'any';
interface FieldSpec { [field: string]: [FieldKind, 'required' | 'optional'] }

const S = (req: 'required' | 'optional' = 'optional'): [FieldKind, 'required' | 'optional'] => ['string', req];

/** What each inbound frame type carries. Extra fields are ignored (zot's SDKs may add some). */
const FROM_EXT: Record<FrameFromExtType, FieldSpec> = {
  hello: { name: S('required'), version: S(), capabilities: ['string[]', 'optional'], min_protocol: ['count', 'optional'] },
  register_command: { name: S('required'), description: S() },
  register_tool: {
    name: S('required'), description: S(), schema: ['any', 'optional'],
    deferred: ['boolean', 'optional'], interactive: ['boolean', 'optional'],
    // terva's; display is checked at registration, since a bad hint never costs the tool.
    read_only: ['boolean', 'optional'], authority: S(), essential: ['boolean', 'optional'], display: ['any', 'optional'],
    // zot's after v0.3.73 (docs/ZOT.md 2.3): exposure and replay are checked at registration, with zot's words.
    output_schema: ['any', 'optional'], namespace: S(), namespace_description: S(), namespace_instructions: S(), exposure: S(), replay: S(),
  },
  subscribe: { events: ['string[]', 'optional'], intercept: ['string[]', 'optional'] },
  ready: {},
  command_response: {
    id: S('required'), action: S(), prompt: S(), insert: S(), display: S(), error: S(),
    open_panel: ['panel', 'optional'], tool_name: S(), tool_args: ['any', 'optional'],
  },
  tool_result: {
    id: S('required'), content: ['blocks', 'optional'], is_error: ['boolean', 'optional'],
    structured_content: ['any', 'optional'], activate_tools: ['string[]', 'optional'],
  },
  // zot's request to run a tool: the name and args are checked by the host, which answers a bad one in zot's words.
  call_tool: { id: S('required'), name: ['any', 'optional'], args: ['any', 'optional'], parent_id: S() },
  call_tool_cancel: { id: S('required') },
  // modified_args is checked by the host, which keeps the rest of the answer when only it is wrong.
  event_intercept_response: {
    id: S('required'), block: ['boolean', 'optional'], reason: S(), modified_args: ['any', 'optional'], replace_text: S(), system_prompt: ['any', 'optional'],
  },
  notify: { level: S(), message: S('required') },
  clear_notes: {},
  submit: { text: S('required') },
  submit_slash: { text: S('required') },
  open_panel: { panel: ['panel', 'required'] },
  panel_render: { panel_id: S('required'), title: S(), lines: ['string[]', 'optional'], footer: S(), widgets: ['widgets', 'optional'] },
  panel_close: { panel_id: S('required') },
  shutdown_ack: {},
  error: { id: S(), message: S() },
  // terva's additions (docs/TERVA.md 15.4, 16). Fields its encoder always writes may still be absent.
  bootstrap: { message: S() },
  register_context: { text: S() },
  refresh_context: { text: S() },
  context_card: { id: S('required'), label: S(), text: S(), priority: ['int', 'optional'], blocking: ['boolean', 'optional'] },
  context_card_clear: { id: S('required') },
  status_segment: { id: S('required'), text: S() },
  set_withdrawn_tools: { tools: ['string[]', 'optional'], all: ['boolean', 'optional'] },
  register_connector: {},
  chat: { id: S('required'), frame: ['object', 'optional'] },
  chat_down: { id: S('required'), error: S() },
  host_tool_call: { id: S('required'), name: S('required'), args: ['object', 'optional'], silent: ['boolean', 'optional'] },
  list_sessions: { id: S('required'), project_id: S() },
  read_session: { id: S('required'), session_id: S('required') },
  secret_set: { id: S('required'), key: S('required'), value: S('required') },
  secret_get: { id: S('required'), key: S('required') },
  secret_delete: { id: S('required'), key: S('required') },
  secret_list: { id: S('required') },
};

/** The specs as arrays, computed once: validation runs on every frame. */
const FIELDS = new Map<string, readonly [string, FieldKind, boolean][]>(
  Object.entries(FROM_EXT).map(([type, spec]) => [type, Object.entries(spec).map(([f, [kind, req]]) => [f, kind, req === 'required'] as const)]),
);
/**
 * The reply to every tool call, looked for first: a parsed type is a new
 * string each time, and finding it in the map hashes it on every frame.
 */
const TOOL_RESULT_FIELDS = FIELDS.get('tool_result')!;

export function isFrameFromExtType(type: string): type is FrameFromExtType {
  return FIELDS.has(type);
}

/** Parses one line of text into a validated frame. */
export function parseFrame(text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `not JSON (${jsonErrorReason(err as Error)}): ${preview(text)}` };
  }
  return validateFrame(value, text);
}

/**
 * Why JSON.parse refused a line, without the excerpt of the line V8 quotes
 * (`Unexpected token 'o', "oops sk-li"... is not valid JSON`): the problem
 * quotes the line once, whole enough to be redacted, never a cut piece of it.
 */
export function jsonErrorReason(err: Error): string {
  return err.message.replace(/, ".*"(\.\.\.)? is not valid JSON$/s, '');
}

/** Validates an already parsed JSON value as a frame from an extension. */
export function validateFrame(value: unknown, text?: string): ParseResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, problem: `frame is ${kind}, not an object${text === undefined ? '' : `: ${preview(text)}`}` };
  }
  const obj = value as Record<string, unknown>;
  const type = obj.type;
  const id = typeof obj.id === 'string' ? obj.id : undefined;
  if (type === undefined) return { ok: false, problem: 'frame has no "type"', ...(id !== undefined && { id }) };
  if (typeof type !== 'string') return { ok: false, problem: `frame "type" must be a string, got ${describe(type)}` };
  const fields = type === 'tool_result' ? TOOL_RESULT_FIELDS : FIELDS.get(type);
  if (!fields) return { ok: false, problem: `unknown frame type "${preview(type, 64)}"`, type, ...(id !== undefined && { id }) };
  // Before anything looks inside: deeper values break the JSON engines downstream.
  // Nesting deeper than the limit takes more than twice as many brackets as its
  // levels, so a short line cannot be too deep and is not walked (most replies).
  if ((text === undefined || text.length > 2 * MAX_JSON_DEPTH) && deeperThan(obj, MAX_JSON_DEPTH)) {
    const what = type === 'register_tool' && typeof obj.name === 'string' ? ` (tool "${preview(obj.name, 64)}" not registered)` : '';
    return fail(type, id, `nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays; dropped${what}`);
  }

  for (let i = 0; i < fields.length; i++) {
    const [field, kind, required] = fields[i]!;
    const v = obj[field];
    if (v === undefined || v === null) {
      if (required) return fail(type, id, `field "${field}" is required`);
      // Optional nulls (common from Python and JS SDKs) mean "absent".
      if (v === null) delete obj[field];
      continue;
    }
    const problem = checkKind(kind, v);
    if (problem) return fail(type, id, `field "${field}" ${problem}`);
  }
  return { ok: true, frame: obj as unknown as FrameFromExt };
}

function fail(type: string, id: string | undefined, problem: string): ParseResult {
  return { ok: false, problem: `"${type}" frame: ${problem}`, type, ...(id !== undefined && { id }) };
}

function checkKind(kind: FieldKind, v: unknown): string | undefined {
  switch (kind) {
    case 'any':
      return undefined;
    case 'int':
      return Number.isSafeInteger(v) ? undefined : `must be a whole number, got ${describe(v)}`;
    case 'count':
      return Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : `must be a whole number, 0 or more, got ${describe(v)}`;
    case 'object':
      return typeof v === 'object' && !Array.isArray(v) ? undefined : `must be an object, got ${describe(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `must be a string, got ${describe(v)}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `must be a boolean, got ${describe(v)}`;
    case 'string[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : 'must be a list of strings';
    case 'blocks':
      if (!Array.isArray(v)) return `must be a list of content blocks, got ${describe(v)}`;
      for (let i = 0; i < v.length; i++) {
        const b = toBlock(v[i]);
        if (typeof b === 'string') return `item ${i} ${b}`;
        v[i] = b;
      }
      return undefined;
    case 'widgets':
      return widgetsIn(v);
    case 'panel': {
      if (typeof v !== 'object' || Array.isArray(v)) return `must be a panel object, got ${describe(v)}`;
      const p = v as Record<string, unknown>;
      if (typeof p.id !== 'string' || p.id === '') return 'must have a non-empty string "id"';
      for (const f of ['title', 'footer', 'tool_call_id']) {
        if (p[f] !== undefined && p[f] !== null && typeof p[f] !== 'string') return `"${f}" must be a string`;
      }
      if (p.lines !== undefined && p.lines !== null && !(Array.isArray(p.lines) && p.lines.every((x) => typeof x === 'string'))) {
        return '"lines" must be a list of strings';
      }
      if (p.widgets !== undefined && p.widgets !== null) {
        const problem = widgetsIn(p.widgets);
        if (problem) return `"widgets" ${problem}`;
      }
      return undefined;
    }
  }
}

/** Checks a widget tree, leaving it (in the same list) as readWidgets makes it. */
function widgetsIn(v: unknown): string | undefined {
  const widgets = readWidgets(v);
  if (typeof widgets === 'string') return widgets;
  (v as unknown[]).splice(0, (v as unknown[]).length, ...widgets);
  return undefined;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`.slice(0, 60);
}

/**
 * One content block as the closed union (frames.ts ContentBlock), or why it
 * is not one. Text and image fields that are missing or null are "", as zot
 * (Go) reads them; any other non-string is refused. A block of another type
 * is kept whole inside an OtherBlock.
 */
function toBlock(b: unknown): ContentBlock | string {
  if (typeof b !== 'object' || b === null || Array.isArray(b) || typeof (b as { type?: unknown }).type !== 'string') return 'must be an object with a string "type"';
  const o = b as Record<string, unknown> & { type: string };
  // Already what the union says (nearly every block): kept as it is, no copy.
  if (o.type === 'text' ? typeof o.text === 'string' : o.type === 'image' && typeof o.mime_type === 'string' && typeof o.data === 'string') return o as unknown as ContentBlock;
  const field = (name: string): string | undefined => (o[name] === undefined || o[name] === null ? '' : typeof o[name] === 'string' ? (o[name] as string) : undefined);
  if (o.type === 'text') {
    const text = field('text');
    return text === undefined ? `("text" block): "text" must be a string, got ${describe(o.text)}` : { ...o, type: 'text', text };
  }
  if (o.type === 'image') {
    const mime = field('mime_type');
    const data = field('data');
    if (mime === undefined) return `("image" block): "mime_type" must be a string, got ${describe(o.mime_type)}`;
    if (data === undefined) return `("image" block): "data" must be a string, got ${describe(o.data)}`;
    return { ...o, type: 'image', mime_type: mime, data };
  }
  return { type: 'other', other_type: o.type, block: o };
}

/** A short, single-line preview of offending input for diagnostics. */
export function preview(text: string, max = 120): string {
  const flat = singleLine(text.length > max * 2 ? text.slice(0, max * 2) : text);
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
}

export type SchemaResult = { ok: true; schema: JsonObject } | { ok: false; problem: string };

/**
 * A tool's `schema` as registered: a JSON Schema object, or (older
 * extensions) the same as a JSON string. Bounded in depth like a frame, since
 * a string schema is parsed here rather than by the frame reader.
 */
export function readToolSchema(raw: unknown): SchemaResult {
  let schema: unknown = raw ?? { type: 'object', properties: {} };
  if (typeof schema === 'string') {
    try {
      schema = JSON.parse(schema);
    } catch {
      return { ok: false, problem: 'its schema is not valid JSON' };
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, problem: 'its schema must be a JSON Schema object' };
  }
  if (deeperThan(schema, MAX_VALUE_DEPTH)) return { ok: false, problem: `its schema is nested deeper than ${MAX_VALUE_DEPTH} levels` };
  return { ok: true, schema: schema as JsonObject };
}
