/**
 * What one extension registered over its connection: commands, tools and
 * event subscriptions. Forgotten when the connection goes.
 */
import { INTERCEPTABLE_EVENTS, readToolSchema, type FrameFromExt, type JsonObject } from '../../protocol/index.js';

export interface CommandRegistration { name: string; description: string }
export interface ToolRegistration {
  name: string;
  description: string;
  schema: JsonObject;
  interactive: boolean;
  deferred: boolean;
}

export type RegistrationFrame = Extract<FrameFromExt, { type: 'register_command' | 'register_tool' | 'subscribe' }>;

export class Registrations {
  /** By lower-cased name: zot matches commands case-insensitively. */
  readonly commands = new Map<string, CommandRegistration>();
  readonly tools = new Map<string, ToolRegistration>();
  readonly events = new Set<string>();
  readonly intercepts = new Set<string>();

  /** Applies a frame; returns whether anything changed. Problems go to `problem`. */
  apply(frame: RegistrationFrame, problem: (message: string) => void): boolean {
    switch (frame.type) {
      case 'register_command': {
        const name = frame.name.trim();
        if (!name) return void problem('register_command with an empty name was ignored'), false;
        this.commands.set(name.toLowerCase(), { name, description: frame.description ?? '' });
        return true;
      }
      case 'register_tool':
        return this.registerTool(frame, problem);
      case 'subscribe':
        for (const e of frame.events ?? []) this.events.add(e);
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

  private registerTool(frame: Extract<FrameFromExt, { type: 'register_tool' }>, problem: (message: string) => void): boolean {
    const schema = readToolSchema(frame.schema);
    if (!schema.ok) return void problem(`tool "${frame.name}" skipped: ${schema.problem}`), false;
    if (!frame.name.trim()) return void problem('register_tool with an empty name was ignored'), false;
    this.tools.set(frame.name, {
      name: frame.name,
      description: frame.description ?? '',
      schema: schema.schema,
      interactive: frame.interactive === true,
      deferred: frame.deferred === true,
    });
    return true;
  }
}
