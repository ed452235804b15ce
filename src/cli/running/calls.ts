/** `zot-host tool` and `zot-host command`: one call, its result printed, the exit status by outcome. */
import { actionOf, boundedStringify, carryOut, decodedBytes, outcomeLabel, renderPanelText, toolPromptResult, wireBlock, type ContentBlock, type ToolOutcome } from '../../host/index.js';
import type { Parsed } from '../args.js';
import { err, out } from '../output.js';
import type { Session } from './session.js';

export async function tool({ host, cancel, interrupted }: Session, p: Parsed, args: Record<string, unknown>): Promise<number> {
  const name = p.positional[0]!;
  const o = await host.runToolCall(name, args, { token: cancel.token, ...(p.timeoutMs !== undefined && { timeoutMs: p.timeoutMs }) });
  if (p.json) {
    // zot's structured_content, when the tool sent one: the value programs read.
    const structured = o.outcome === 'completed' && o.structured !== undefined ? { structured_content: o.structured } : {};
    out(boundedStringify({ outcome: o.outcome, extension: o.extension, is_error: o.isError, content: o.content.map(wireBlock), message: o.message, ...structured }));
  } else {
    const text = o.content.map(blockText).join('\n');
    if (text) (o.isError ? err : out)(text);
    if (o.outcome !== 'completed') err(`${name}: ${outcomeLabel(o.outcome)}: ${o.message}`);
    // An answer the host could not use (an error frame, a reply over the limit): say so, not only its text.
    else if (o.message) err(`${name}: ${o.message}`);
    else if (o.isError && !text) err(`${name}: the tool reported an error`);
  }
  if (interrupted()) return 130;
  return o.outcome === 'completed' && !o.isError ? 0 : 1;
}

export async function command({ host, cancel, interrupted }: Session, p: Parsed): Promise<number> {
  const [name, ...rest] = p.positional;
  const o = await host.invokeCommand(name!.replace(/^\//, ''), rest.join(' '), { token: cancel.token, ...(p.timeoutMs !== undefined && { timeoutMs: p.timeoutMs }) });
  if (o.outcome !== 'completed') {
    if (p.json) out(boundedStringify({ outcome: o.outcome, message: o.message }));
    else err(`/${name}: ${outcomeLabel(o.outcome)}: ${o.message}`);
    return interrupted() ? 130 : 1;
  }
  const r = o.response;
  // zot's tool_prompt: the tool runs through the door (events, guards) before anything is printed.
  const run = (tool: string, args: Record<string, unknown>): Promise<ToolOutcome> => host.runToolCall(tool, args, { token: cancel.token, ...(p.timeoutMs !== undefined && { timeoutMs: p.timeoutMs }) });
  if (p.json) {
    const { type: _t, id: _i, ...response } = r;
    const ran = actionOf(r) === 'tool_prompt' ? await run(r.tool_name!, (r.tool_args ?? {}) as Record<string, unknown>) : undefined;
    out(boundedStringify(ran ? { ...response, tool_result: { outcome: ran.outcome, is_error: ran.isError, content: ran.content.map(wireBlock), message: ran.message } } : response));
  } else {
    // The headless rendering of each action: what it would show or send, as text.
    await carryOut<void | Promise<void>>(r, {
      error: (m) => err(`/${name}: error: ${m}`),
      prompt: (t) => out(`prompt for the model:\n${t}`),
      insert: (t) => out(t),
      display: (t) => out(t),
      openPanel: (s) => out(renderPanelText({ title: s.title ?? '', lines: s.lines ?? [], footer: s.footer ?? '', widgets: s.widgets ?? [] })),
      toolPrompt: async (t) => {
        const ran = await run(t.tool, t.args);
        out(`${t.tool} ran first:\n${toolPromptResult(ran)}\n\nprompt for the model:\n${t.prompt}`);
      },
      noop: () => undefined,
    });
  }
  if (interrupted()) return 130;
  return actionOf(r) === 'error' ? 1 : 0;
}

function blockText(b: ContentBlock): string {
  if (b.type === 'text') return b.text;
  if (b.type === 'image') return `[image ${b.mime_type || '?'}, ${decodedBytes(b.data)} bytes]`;
  return `[${b.other_type} block]`;
}
