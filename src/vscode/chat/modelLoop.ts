/**
 * One @zot turn with the model: the history replayed, the tools chosen, then
 * model steps and tool calls until the model ends its turn, the step limit
 * or Stop. Every step is kept as a round in the result's metadata, with each
 * call's result as the model saw it, so later turns can replay it; after
 * Stop, the call that was running and those that never started are kept
 * with how they really ended.
 */
import * as vscode from 'vscode';
import type { ToolEntry, ZotHost } from '../../host/index.js';
import { callEnd, NEVER_STARTED, type CallEnding } from './callOutcome.js';
import { readHistory, type ZotTurnMetadata } from './history.js';
import { MAX_TOOLS_PER_REQUEST, STOP_SETTLE_MS } from './limits.js';
import { resultForModel, seenParts, type ModelAbilities } from './modelView.js';
import { keepForHistory, type Round, type RoundCall } from './rounds.js';
import { settleAfterStop } from './stopSettle.js';
import { chooseTools, mostRecentFirst } from './toolChoice.js';
import { chatToolName, describeEnding, toModelParts } from './toolResults.js';

export interface LoopDeps {
  host: ZotHost;
  maxSteps: number;
  /** zot tool names called in this window, the newest first; the loop adds to it. */
  recentTools: string[];
  log(line: string): void;
}

export async function runModelLoop(
  deps: LoopDeps,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  prompt: string,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<{ metadata: ZotTurnMetadata }> {
  const { host } = deps;
  const model = request.model;
  host.setModel(model.vendor, model.id);
  const rounds: Round[] = [];
  const toolCalls: ZotTurnMetadata['toolCalls'] = [];
  let steps = 0;
  let modelText = '';
  let toolsNote = false;
  // As zot: a turn_end after every model step, with zot's stop names; the request's own end sends nothing more.
  const stepEnd = (stop: 'tool_use' | 'end' | 'error' | 'aborted', error?: string): void => {
    host.emit('turn_end', error === undefined ? { stop } : { stop, error });
  };
  const end = (stop: string): { metadata: ZotTurnMetadata } => {
    deps.log(`@zot: the request ended (${stop}) after ${steps} step(s)`);
    return { metadata: { stop, steps, toolCalls, modelText, prompt, rounds, ...(toolsNote && { toolsNote }) } };
  };

  const before = await host.intercept('before_agent_start', { text: prompt });
  if (before.blocked) {
    stream.markdown(`**Blocked by the zot extension \`${before.by}\`:** ${before.reason}`);
    return { metadata: { stop: 'blocked', steps, toolCalls } };
  }

  const history = readHistory(chatContext);
  const choice = chooseTools(host.tools().filter((t) => t.active), prompt, mostRecentFirst([history.recentTools, deps.recentTools]), MAX_TOOLS_PER_REQUEST);
  if (choice.left.length && !history.toolsNoteShown) {
    stream.markdown(toolsNoteText(choice.chosen.length, choice.left, choice.named));
    deps.log(`@zot: ${choice.chosen.length + choice.left.length} active tools, a request carries at most ${MAX_TOOLS_PER_REQUEST}; sent ${choice.chosen.length}${choice.named.length ? ` (first those of ${choice.named.join(', ')}, named in the prompt)` : ''}, not sent ${choice.left.length}: ${choice.left.map((t) => t.name).join(', ')}`);
    toolsNote = true;
  }
  // Tools as the model sees them; chat names must be plain, so keep a map back to zot's names.
  const byChatName = new Map<string, string>();
  const taken = new Set<string>();
  const tools: vscode.LanguageModelChatTool[] = choice.chosen.map((t) => {
    const name = chatToolName(t.name, taken);
    byChatName.set(name, t.name);
    return { name, description: t.description || `${t.name} (from the zot extension ${t.extension})`, inputSchema: t.schema };
  });
  const abilities = modelAbilities(model);

  const messages = [...history.messages, vscode.LanguageModelChatMessage.User(prompt)];
  while (steps < deps.maxSteps) {
    if (token.isCancellationRequested) return stopped();
    steps++;
    // As zot: the event goes out before the step's interceptors are asked.
    host.emit('turn_start', { step: steps });
    const turn = await host.intercept('turn_start', { step: steps });
    if (turn.blocked) {
      stream.markdown(`**Turn blocked by the zot extension \`${turn.by}\`:** ${turn.reason}`);
      stepEnd('error', turn.reason);
      return end('blocked');
    }

    let text = '';
    const calls: vscode.LanguageModelToolCallPart[] = [];
    try {
      const response = await model.sendRequest(messages, { tools, justification: 'zot extensions provide the tools for this request' }, token);
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
      }
    } catch (err) {
      if (!token.isCancellationRequested) {
        const message = modelErrorMessage(err);
        stream.markdown(message);
        stepEnd('error', message);
        return end('error');
      }
    }
    if (token.isCancellationRequested) {
      // As zot: a reply cut short keeps its text, and is dropped whole if it held tool calls.
      if (text && calls.length === 0) rounds.push({ text, calls: [] });
      stepEnd('aborted', 'context canceled');
      return stopped();
    }

    if (text) {
      modelText += text;
      await showAssistantText(host, text, stream);
    } else if (calls.length) {
      // As zot: a message of tool calls only is an assistant_message without text.
      host.emit('assistant_message');
    }
    const round: Round = { text, calls: [] };
    rounds.push(round);
    // The model's own words stay in the history, whatever an interceptor showed instead.
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
    // As zot: every call of the step is announced with the model's args, then the step ends, then the calls run.
    for (const call of calls) host.announceToolCall(call.callId, byChatName.get(call.name) ?? call.name, call.input as Record<string, unknown>);
    stepEnd(calls.length ? 'tool_use' : 'end');
    if (calls.length === 0) return end('end_turn');

    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const [i, call] of calls.entries()) {
      const name = byChatName.get(call.name) ?? call.name;
      const input = call.input as Record<string, unknown>;
      stream.progress(`Running ${name}…`);
      const outcome = await host.runToolCall(name, input, { token, toolId: call.callId, announced: true });
      const byStop = token.isCancellationRequested;
      const ending = byStop ? await settleAfterStop(host, callEnd(outcome), STOP_SETTLE_MS) : callEnd(outcome);
      toolCalls.push({ name, outcome: ending.end });
      bumpRecent(deps.recentTools, name);
      if (ending.end !== 'completed') stream.markdown(`\n\n> \`${name}\`: ${describeEnding(outcome, ending, byStop)}\n\n`);
      const seen = resultForModel(ending, byStop, abilities);
      round.calls.push(roundCall(call, name, ending, seenParts(seen)));
      results.push(new vscode.LanguageModelToolResultPart(call.callId, toModelParts(seen)));
      if (byStop) {
        // Every call the model asked for gets an ending, or the next turn's history would be malformed.
        for (const rest of calls.slice(i + 1)) {
          const restName = byChatName.get(rest.name) ?? rest.name;
          round.calls.push(roundCall(rest, restName, NEVER_STARTED, seenParts(resultForModel(NEVER_STARTED, true, abilities))));
        }
        return stopped(true);
      }
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  stream.markdown(`\n\nStopped after ${deps.maxSteps} steps (the \`zot.chat.maxSteps\` setting).`);
  return end('max_steps');

  /** Stop: the step's turn_end has gone out already (as in zot, a Stop while tools run sends nothing more). */
  function stopped(reported = false): { metadata: ZotTurnMetadata } {
    if (!reported) stream.markdown('\n\nStopped.');
    return end('canceled');
  }
}

function roundCall(call: vscode.LanguageModelToolCallPart, tool: string, ending: CallEnding, result: RoundCall['result']): RoundCall {
  return { callId: call.callId, name: call.name, tool, input: call.input as Record<string, unknown>, end: ending.end, result: keepForHistory(result) };
}

function bumpRecent(recent: string[], name: string): void {
  const at = recent.indexOf(name);
  if (at >= 0) recent.splice(at, 1);
  recent.unshift(name);
  if (recent.length > 1000) recent.length = 1000;
}

function toolsNoteText(sent: number, left: readonly ToolEntry[], named: readonly string[]): string {
  const total = sent + left.length;
  const first = named.length ? `the tools of ${named.map((n) => `\`${n}\``).join(', ')} (named in your prompt), then the most recently used` : 'the most recently used first';
  const shown = left.slice(0, 10).map((t) => `\`${t.name}\``).join(', ');
  const more = left.length > 10 ? ` and ${left.length - 10} more` : '';
  return `*zot extensions provide ${total} tools and a request carries at most ${MAX_TOOLS_PER_REQUEST}, so this chat sends ${sent}: ${first}. Name an extension in your prompt to have its tools sent. Not sent: ${shown}${more}.*\n\n`;
}

/** What the request's model says it takes; VS Code exposes it at run time only. */
function modelAbilities(model: vscode.LanguageModelChat): ModelAbilities {
  const caps = (model as unknown as { capabilities?: { supportsImageToText?: unknown } }).capabilities;
  return { images: typeof caps?.supportsImageToText === 'boolean' ? caps.supportsImageToText : undefined };
}

/** Shows one assistant message after the assistant_message interceptors had their say. */
async function showAssistantText(host: ZotHost, text: string, stream: vscode.ChatResponseStream): Promise<void> {
  const verdict = await host.intercept('assistant_message', { text });
  if (verdict.blocked) {
    stream.markdown(`*(A message was hidden by the zot extension \`${verdict.by}\`: ${verdict.reason})*\n\n`);
    return;
  }
  const shown = verdict.payload.text ?? text;
  stream.markdown(shown);
  host.emit('assistant_message', { text: shown });
}

function modelErrorMessage(err: unknown): string {
  if (err instanceof vscode.LanguageModelError) {
    if (err.code === vscode.LanguageModelError.NoPermissions.name) return 'The language model refused this request: permission was not granted.';
    if (err.code === vscode.LanguageModelError.NotFound.name) {
      return 'No language model is available for chat. Sign in to a model provider (for example GitHub Copilot) or pick a model in the chat view, then ask again.';
    }
    if (err.code === vscode.LanguageModelError.Blocked.name) return 'The language model provider blocked this request (quota or policy).';
  }
  return `The language model failed: ${(err as Error).message ?? String(err)}`;
}
