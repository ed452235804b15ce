/**
 * A command's response, carried out in one place: which action it asks for
 * and whether there is anything to do. Each front end renders the actions
 * its own way (the host's UI port, chat, the CLI's output).
 */
import { preview, type CommandResponseFromExt, type JsonObject, type PanelSpec } from '../../protocol/index.js';

export type ActionTaken = 'error' | 'prompt' | 'insert' | 'display' | 'open_panel' | 'tool_prompt' | 'noop';

/** zot's `tool_prompt` (docs/ZOT.md 2.4): a tool run through the door before the model's turn, whose call and result the model then reads. */
export interface ToolPrompt { prompt: string; tool: string; args: JsonObject }

/** zot's words for a tool_prompt it cannot carry out. */
export const TOOL_PROMPT_INVALID = 'tool prompt requires text, tool ID, name and JSON object arguments';

export interface CommandRenderer<T> {
  error(message: string): T;
  prompt(text: string): T;
  insert(text: string): T;
  display(text: string): T;
  openPanel(spec: PanelSpec): T;
  toolPrompt(p: ToolPrompt): T;
  noop(): T;
}

/**
 * As zot does: an error wins over the action; an action without its text
 * does nothing, and so does a prompt that is only whitespace; an action zot
 * does not know is an error naming it.
 */
export function carryOut<T>(r: CommandResponseFromExt, render: CommandRenderer<T>): T {
  if (r.error) return render.error(r.error);
  switch (r.action) {
    case 'prompt': return r.prompt?.trim() ? render.prompt(r.prompt) : render.noop();
    case 'insert': return r.insert ? render.insert(r.insert) : render.noop();
    case 'display': return r.display ? render.display(r.display) : render.noop();
    case 'open_panel': return r.open_panel ? render.openPanel(r.open_panel) : render.noop();
    case 'tool_prompt': {
      // Missing arguments are an empty object, as a JSON null is for a tool call.
      const args = r.tool_args ?? {};
      if (!r.prompt?.trim() || !r.tool_name || typeof args !== 'object' || Array.isArray(args)) return render.error(TOOL_PROMPT_INVALID);
      return render.toolPrompt({ prompt: r.prompt, tool: r.tool_name, args: args as JsonObject });
    }
    case 'noop': case '': case undefined: return render.noop();
    default: return render.error(`unknown action ${preview(r.action, 60)}`);
  }
}

/** Which action `carryOut` takes for a response. */
export function actionOf(r: CommandResponseFromExt): ActionTaken {
  return carryOut<ActionTaken>(r, {
    error: () => 'error', prompt: () => 'prompt', insert: () => 'insert', display: () => 'display', openPanel: () => 'open_panel', toolPrompt: () => 'tool_prompt', noop: () => 'noop',
  });
}
