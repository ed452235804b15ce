/**
 * zot's `tool_prompt` where no model conversation can hold the call and its
 * result as a pair (a UI that only submits text, an MCP prompt, the CLI):
 * the tool's result, then the prompt, as text a model reads.
 */
import { blocksText } from '../results/content.js';
import { outcomeLabel, type ToolOutcome } from '../results/outcomes.js';
import type { ToolPrompt } from './commandResponse.js';

/** What the tool returned, as a model would read it: its text, or how it ended. */
export function toolPromptResult(o: ToolOutcome): string {
  const text = o.content.length ? blocksText(o.content) : '';
  if (o.outcome !== 'completed') return `${text ? `${text}\n` : ''}(${outcomeLabel(o.outcome)}: ${o.message})`;
  return o.isError ? `(the tool reported an error)${text ? `\n${text}` : ''}` : text;
}

/** The result and the prompt in one text: the result first, as zot records the pair before the model's turn. */
export function toolPromptText(p: ToolPrompt, o: ToolOutcome): string {
  return `Result of the tool ${p.tool} (run for this prompt):\n${toolPromptResult(o)}\n\n${p.prompt}`;
}
