/**
 * The @zot chat participant: zot commands typed as `/name args`, and a
 * tool-calling loop on the request's model with every active zot tool as a
 * private tool. The loop raises zot's lifecycle events and intercepts, and
 * the request's token (Stop) reaches every tool call in flight.
 */
import * as vscode from 'vscode';
import type { ToolOutcome, ZotHost } from '../../host/index.js';
import { chatToolName, describeOutcome, toResultParts } from './toolResults.js';

export const PARTICIPANT_ID = 'zot.chat';

export interface ChatDeps {
  host(): ZotHost;
  maxSteps(): number;
}

export interface ZotChatResult extends vscode.ChatResult {
  metadata: {
    stop: string;
    steps: number;
    toolCalls: { name: string; outcome: string }[];
    /** The model's own words, kept for the history even where an interceptor showed something else. */
    modelText?: string;
  };
}

export function registerChatParticipant(context: vscode.ExtensionContext, deps: ChatDeps): vscode.ChatParticipant {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, chatContext, stream, token) =>
    handleRequest(deps, request, chatContext, stream, token),
  );
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups: () => [{ prompt: '/help', label: 'What can zot extensions do here?', command: 'help' }],
  };
  context.subscriptions.push(participant);
  return participant;
}

async function handleRequest(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<ZotChatResult> {
  const host = deps.host();
  const done = (stop: string, steps = 0, toolCalls: ZotChatResult['metadata']['toolCalls'] = []): ZotChatResult => ({ metadata: { stop, steps, toolCalls } });
  await host.whenLoaded();

  if (request.command === 'help') {
    stream.markdown(helpText(host));
    return done('help');
  }
  if (request.command === 'reload') {
    stream.progress('Reloading zot extensions…');
    await host.reload();
    const running = host.extensions.filter((e) => e.connected).length;
    stream.markdown(`Reloaded: ${running} of ${host.extensions.length} extension(s) running.`);
    return done('reload');
  }

  // A chat with no history is a new session.
  if (chatContext.history.length === 0) host.emit('session_start');

  let prompt = request.prompt;
  const slash = /^\s*\/([^\s/]+)\s*([\s\S]*)$/.exec(prompt);
  if (slash) {
    const [, name, args] = slash as unknown as [string, string, string];
    const cmd = host.findCommand(name);
    if (!cmd) {
      stream.markdown(`There is no zot command \`/${name}\`. ${commandList(host) || 'No zot extension provides commands right now.'}`);
      return done('unknown_command');
    }
    const o = await host.invokeCommand(name, args, { token });
    if (o.outcome !== 'completed') {
      stream.markdown(`\`/${cmd.name}\` ${o.outcome.replace('_', ' ')}: ${o.message}`);
      return done(o.outcome);
    }
    // Chat renders errors, prompts and displays itself; insert and open_panel go to the editor.
    const action = await host.applyCommandResponse(o.extension, o.response, {
      error: (m) => void stream.markdown(`**/${cmd.name} failed:** ${m}`),
      prompt: (text) => {
        prompt = text;
        stream.markdown(`*/${cmd.name}* asks the model:\n\n> ${text.replace(/\n/g, '\n> ')}\n\n`);
      },
      display: (text) => void stream.markdown(text),
    });
    if (action === 'error') return done('command_error');
    if (action === 'insert' || action === 'open_panel') {
      stream.markdown(action === 'insert' ? `Inserted the text from \`/${cmd.name}\` into the editor.` : `Opened the panel of \`/${cmd.name}\`.`);
    }
    if (action !== 'prompt') return done(action);
  }
  return runModelLoop(deps, host, request, chatContext, prompt, stream, token);
}

async function runModelLoop(
  deps: ChatDeps,
  host: ZotHost,
  request: vscode.ChatRequest,
  chatContext: vscode.ChatContext,
  prompt: string,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<ZotChatResult> {
  const model = request.model;
  host.setModel(model.vendor, model.id);
  const toolCalls: ZotChatResult['metadata']['toolCalls'] = [];
  let steps = 0;
  let modelText = '';
  const end = (stop: string, error?: string): ZotChatResult => {
    host.emit('turn_end', error === undefined ? { stop } : { stop, error });
    return { metadata: { stop, steps, toolCalls, modelText } };
  };

  const before = await host.intercept('before_agent_start', { text: prompt });
  if (before.blocked) {
    stream.markdown(`**Blocked by the zot extension \`${before.by}\`:** ${before.reason}`);
    return { metadata: { stop: 'blocked', steps, toolCalls } };
  }

  // Tools as the model sees them; chat names must be plain, so keep a map back to zot's names.
  const byChatName = new Map<string, string>();
  const taken = new Set<string>();
  const tools: vscode.LanguageModelChatTool[] = host.tools().filter((t) => t.active).map((t) => {
    const name = chatToolName(t.name, taken);
    byChatName.set(name, t.name);
    return { name, description: t.description || `${t.name} (from the zot extension ${t.extension})`, inputSchema: t.schema };
  });

  const messages: vscode.LanguageModelChatMessage[] = [...historyMessages(chatContext), vscode.LanguageModelChatMessage.User(prompt)];
  const maxSteps = deps.maxSteps();
  while (steps < maxSteps) {
    if (token.isCancellationRequested) return stopped();
    steps++;
    const turn = await host.intercept('turn_start', { step: steps });
    if (turn.blocked) {
      stream.markdown(`**Turn blocked by the zot extension \`${turn.by}\`:** ${turn.reason}`);
      return end('blocked', turn.reason);
    }
    host.emit('turn_start', { step: steps });

    let text = '';
    const calls: vscode.LanguageModelToolCallPart[] = [];
    try {
      const response = await model.sendRequest(messages, { tools, justification: 'zot extensions provide the tools for this request' }, token);
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
      }
    } catch (err) {
      if (token.isCancellationRequested) return stopped();
      const message = modelErrorMessage(err);
      stream.markdown(message);
      return end('error', message);
    }

    if (text) {
      modelText += text;
      await showAssistantText(host, text, stream);
    }
    // The model's own words stay in the history, whatever an interceptor showed instead.
    messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
    if (calls.length === 0) return end('end_turn');

    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of calls) {
      const name = byChatName.get(call.name) ?? call.name;
      stream.progress(`Running ${name}…`);
      const outcome = await host.runToolCall(name, call.input as Record<string, unknown>, { token, toolId: call.callId });
      toolCalls.push({ name, outcome: outcome.outcome });
      if (outcome.outcome !== 'completed') stream.markdown(`\n\n> \`${name}\`: ${describeOutcome(outcome, token.isCancellationRequested)}\n\n`);
      results.push(new vscode.LanguageModelToolResultPart(call.callId, toResultParts(outcome, token.isCancellationRequested)));
      if (token.isCancellationRequested) return stopped(outcome);
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  stream.markdown(`\n\nStopped after ${maxSteps} steps (the \`zot.chat.maxSteps\` setting).`);
  return end('max_steps');

  function stopped(last?: ToolOutcome): ZotChatResult {
    if (!last) stream.markdown('\n\nStopped.');
    return end('canceled');
  }
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

function historyMessages(chatContext: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const turn of chatContext.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      out.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const own = (turn.result.metadata as ZotChatResult['metadata'] | undefined)?.modelText;
      const text = own ?? turn.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
      if (text) out.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return out;
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

function commandList(host: ZotHost): string {
  const cmds = host.commands().filter((c) => c.active);
  if (cmds.length === 0) return '';
  return `Available: ${cmds.map((c) => `\`/${c.name}\``).join(', ')}.`;
}

function helpText(host: ZotHost): string {
  const lines = ['**@zot** runs zot extensions\' commands and gives their tools to the model.', ''];
  const cmds = host.commands().filter((c) => c.active);
  const tools = host.tools().filter((t) => t.active);
  lines.push(cmds.length ? '**Commands** (type them after `@zot`):' : 'No zot extension provides commands right now.');
  for (const c of cmds) lines.push(`- \`/${c.name}\`${c.description ? ` — ${c.description}` : ''} *(${c.extension})*`);
  lines.push('', tools.length ? '**Tools** the model can call:' : 'No zot extension provides tools right now.');
  for (const t of tools) lines.push(`- \`${t.name}\`${t.interactive ? ' (asks you)' : ''}${t.description ? ` — ${t.description}` : ''} *(${t.extension})*`);
  const failed = host.extensions.filter((e) => e.status.kind === 'failed' || e.status.kind === 'held');
  if (failed.length) {
    lines.push('', '**Not running:**');
    for (const e of failed) lines.push(`- ${e.name}: ${e.error ?? e.state}`);
  }
  lines.push('', 'Built-ins: `/help`, `/reload`.');
  return lines.join('\n');
}
