/**
 * What one extension registered over its connection: commands, tools and
 * event subscriptions. Forgotten when the connection goes.
 */
import { TERVA_EVENTS, INTERCEPTABLE_EVENTS, KNOWN_EVENTS, preview, readDisplayHints, readToolSchema, REPLAY_POLICIES, TOOL_EXPOSURES, type DisplayHints, type FrameFromExt, type JsonObject, type ReplayPolicy, type ToolExposure } from '../../protocol/index.js';

/** terva honours this many `essential` tools per extension; later ones register as ordinary tools. */
const MAX_ESSENTIAL_TOOLS = 3;
/** Event names neither zot nor terva knows (a newer event, say) are kept up to this many per extension, as terva does. */
const MAX_UNKNOWN_EVENTS = 64;

const TERVA_EVENT_NAMES: ReadonlySet<string> = new Set([...KNOWN_EVENTS, ...TERVA_EVENTS]);

export interface CommandRegistration { name: string; description: string }
export interface ToolRegistration {
  name: string;
  description: string;
  schema: JsonObject;
  interactive: boolean;
  /**
   * Left out of the tools offered to a model until a result in that
   * conversation activates it (zot's `deferred` exposure, `codemode` here
   * too, or `deferred: true` alone); callable by name all along.
   */
  deferred: boolean;
  /** zot's exposure, as registered (absent: direct). */
  exposure?: ToolExposure;
  /** zot's `output_schema`: the shape of its `structured_content`, metadata only. */
  outputSchema?: unknown;
  /** zot's code-mode grouping, kept as sent. */
  namespace?: { name: string; description?: string; instructions?: string };
  /** zot's replay policy for durable hosts: recorded, never acted on here. */
  replay: ReplayPolicy;
  /**
   * terva's hints (docs/TERVA.md 16.2): the MCP servers turn them into tool
   * annotations (src/mcp/shared/tools.ts). `authority` as sent: any value
   * outside AUTHORITY_CLASSES counts as side-effecting (authorityOf).
   */
  readOnly: boolean;
  authority?: string;
  /** Asked for and honoured: one of the first MAX_ESSENTIAL_TOOLS of its extension to ask. */
  essential: boolean;
  display?: DisplayHints;
}

export type RegistrationFrame = Extract<FrameFromExt, { type: 'register_command' | 'register_tool' | 'subscribe' }>;

export class Registrations {
  /** By lower-cased name: zot matches commands case-insensitively. */
  readonly commands = new Map<string, CommandRegistration>();
  readonly tools = new Map<string, ToolRegistration>();
  readonly events = new Set<string>();
  readonly intercepts = new Set<string>();

  /**
   * Applies a frame; returns whether anything changed. Problems go to
   * `problem`; what is dropped from an accepted frame (a bad display hint,
   * an essential tool too many) goes to `log`, as terva logs it.
   */
  apply(frame: RegistrationFrame, problem: (message: string) => void, log: (message: string) => void = () => undefined): boolean {
    switch (frame.type) {
      case 'register_command': {
        const name = frame.name.trim();
        if (!name) return void problem('register_command with an empty name was ignored'), false;
        this.commands.set(name.toLowerCase(), { name, description: frame.description ?? '' });
        return true;
      }
      case 'register_tool':
        return this.registerTool(frame, problem, log);
      case 'subscribe':
        for (const e of frame.events ?? []) this.subscribe(e, log);
        for (const e of frame.intercept ?? []) {
          if ((INTERCEPTABLE_EVENTS as readonly string[]).includes(e)) this.intercepts.add(e);
          else problem(`cannot intercept "${e}" (only ${INTERCEPTABLE_EVENTS.join(', ')}); ignored`);
        }
        return true;
    }
  }

  /** Forgets everything; returns whether there was anything. */
  clear(): boolean {
    const had = this.commands.size + this.tools.size + this.events.size + this.intercepts.size > 0;
    this.commands.clear();
    this.tools.clear();
    this.events.clear();
    this.intercepts.clear();
    return had;
  }

  private registerTool(frame: Extract<FrameFromExt, { type: 'register_tool' }>, problem: (message: string) => void, log: (message: string) => void): boolean {
    const schema = readToolSchema(frame.schema);
    if (!schema.ok) return void problem(`tool "${frame.name}" skipped: ${schema.problem}`), false;
    if (!frame.name.trim()) return void problem('register_tool with an empty name was ignored'), false;
    // zot's words (docs/ZOT.md 4): an unknown exposure costs the tool, an unknown replay policy only the policy.
    const exposure = frame.exposure;
    if (exposure !== undefined && exposure !== '' && !(TOOL_EXPOSURES as readonly string[]).includes(exposure)) {
      return void problem(`tool ${JSON.stringify(frame.name)} has unknown exposure ${JSON.stringify(preview(exposure, 64))}, skipped`), false;
    }
    let replay: ReplayPolicy = 'never';
    if (frame.replay !== undefined && frame.replay !== '') {
      if ((REPLAY_POLICIES as readonly string[]).includes(frame.replay)) replay = frame.replay as ReplayPolicy;
      else problem(`tool ${JSON.stringify(frame.name)} has unknown replay policy ${JSON.stringify(preview(frame.replay, 64))}, treated as never`);
    }
    const deferred = exposure === undefined || exposure === '' ? frame.deferred === true : exposure === 'deferred' || exposure === 'codemode';
    const display = readDisplayHints(frame.display);
    for (const d of display.dropped) log(`tool "${frame.name}": ${d}`);
    this.tools.set(frame.name, {
      name: frame.name,
      description: frame.description ?? '',
      schema: schema.schema,
      interactive: frame.interactive === true,
      deferred,
      ...(exposure && { exposure: exposure as ToolExposure }),
      ...(frame.output_schema !== undefined && { outputSchema: frame.output_schema }),
      ...(frame.namespace && { namespace: { name: frame.namespace, ...(frame.namespace_description && { description: frame.namespace_description }), ...(frame.namespace_instructions && { instructions: frame.namespace_instructions }) } }),
      replay,
      readOnly: frame.read_only === true,
      ...(frame.authority && { authority: frame.authority }),
      essential: frame.essential === true && this.essentialRoom(frame.name, log),
      ...(display.hints && { display: display.hints }),
    });
    return true;
  }

  /** Whether one more tool (or this one again) may be essential; the refusal goes to the log. */
  private essentialRoom(name: string, log: (message: string) => void): boolean {
    let others = 0;
    for (const t of this.tools.values()) if (t.essential && t.name !== name) others++;
    if (others < MAX_ESSENTIAL_TOOLS) return true;
    log(`tool "${name}" registered as an ordinary tool: only ${MAX_ESSENTIAL_TOOLS} tools of one extension can be essential`);
    return false;
  }

  /** Every known name is kept; unknown ones up to MAX_UNKNOWN_EVENTS, the rest dropped and logged. */
  private subscribe(event: string, log: (message: string) => void): void {
    if (this.events.has(event)) return;
    if (!TERVA_EVENT_NAMES.has(event)) {
      let unknown = 0;
      for (const e of this.events) if (!TERVA_EVENT_NAMES.has(e)) unknown++;
      if (unknown >= MAX_UNKNOWN_EVENTS) return log(`subscription to "${event.slice(0, 64)}" dropped: more than ${MAX_UNKNOWN_EVENTS} unknown event names`);
    }
    this.events.add(event);
  }
}
