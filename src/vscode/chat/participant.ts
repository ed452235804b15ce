/**
 * The @zot chat participant: zot commands typed as `/name args`, built-ins
 * (/help, /reload), and everything else to the tool-calling loop on the
 * request's model (modelLoop.ts).
 */
import * as vscode from 'vscode';
import { isOffered, isServing, stateOf, type HostCalls, type HostReader } from '../../host/index.js';
import { outcomeWord } from '../views/presentation.js';
import type { UiTrace } from '../ui/trace.js';
import type { ZotTurnMetadata } from './history.js';
import { runModelLoop } from './modelLoop.js';
import type { ChatSessions } from './sessions.js';
import { SystemPrompts } from './systemPrompt.js';
import { t } from '../l10n.js';

export const PARTICIPANT_ID = 'zot.chat';

export interface ChatDeps {
  host(): HostCalls;
  /** `/reload`: through the editor's one path into the host (HostManager). */
  reload(): Promise<void>;
  maxSteps(): number;
  /** A line for the host log. */
  log?(line: string): void;
  /** Where each reply's markdown is recorded (the UI trace; nothing listens to it in the product). */
  replies: UiTrace;
  /** Conversations as terva's sessions; without it, session_start carries no identity. */
  sessions?: ChatSessions;
}

export interface ZotChatResult extends vscode.ChatResult {
  metadata: ZotTurnMetadata;
}

export function registerChatParticipant(context: vscode.ExtensionContext, deps: ChatDeps): vscode.ChatParticipant {
  // zot tools @zot called in this window, the newest first: they are sent first when not all tools fit.
  const recentTools: string[] = [];
  // Each chat session's system prompt as before_agent_start left it, asked again only when zot would ask again.
  const systemPrompts = new SystemPrompts();
  /** The session of the conversation that asked last. */
  const current: { id?: string } = {};
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (request, chatContext, stream, token) => {
    // The same path in every bundle: the reply's markdown is kept for the trace as it is written.
    const written: string[] = [];
    // The built-ins are no part of a conversation with the model: they start no session.
    const sessionId = request.command === 'help' || request.command === 'reload' ? undefined : await enterSession(deps, current, chatContext);
    const result = await handleRequest(deps, { recentTools, systemPrompts, ...(sessionId !== undefined && { sessionId }) }, request, chatContext, recordingMarkdown(stream, written), token);
    if (sessionId) {
      result.metadata.sessionId = sessionId;
      const { prompt, modelText } = result.metadata;
      if (prompt !== undefined) deps.sessions?.record(sessionId, [{ role: 'user', text: prompt }, { role: 'assistant', text: modelText ?? '' }]);
    }
    deps.replies.record('chat-reply', { command: request.command ?? null, prompt: request.prompt, stop: result.metadata.stop, markdown: written.join('') });
    return result;
  });
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups: () => [{ prompt: '/help', label: t('What can zot extensions do here?'), command: 'help' }],
  };
  context.subscriptions.push(participant);
  return participant;
}

/** What the participant keeps across requests for the model loop. */
interface LoopState { recentTools: string[]; systemPrompts: SystemPrompts; sessionId?: string }

async function handleRequest(
  deps: ChatDeps,
  state: LoopState,
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
    stream.progress(t('Reloading zot extensions…'));
    await deps.reload();
    const after = deps.host().extensions;
    const running = after.filter((e) => isServing(e.status)).length;
    stream.markdown(t('Reloaded: {0} of {1} extension(s) running.', running, after.length));
    return done('reload');
  }

  let prompt = request.prompt;
  /** zot's tool_prompt: the tool the turn runs before the model's first step. */
  let prelude: { tool: string; args: Record<string, unknown> } | undefined;
  const slash = /^\s*\/([^\s/]+)\s*([\s\S]*)$/.exec(prompt);
  if (slash) {
    const [, name, args] = slash as unknown as [string, string, string];
    const cmd = host.findCommand(name);
    if (!cmd) {
      stream.markdown(`${t('There is no zot command {0}.', `\`/${name}\``)} ${commandList(host) || t('No zot extension provides commands right now.')}`);
      return done('unknown_command');
    }
    const o = await host.invokeCommand(name, args, { token });
    if (o.outcome !== 'completed') {
      stream.markdown(`\`/${cmd.name}\` ${outcomeWord(o.outcome)}: ${o.message}`);
      return done(o.outcome);
    }
    // Chat renders errors, prompts and displays itself; insert and open_panel go to the editor.
    const action = await host.applyCommandResponse(o.extension, o.response, {
      error: (m) => void stream.markdown(`**${t('/{0} failed:', cmd.name)}** ${m}`),
      prompt: (text) => {
        prompt = text;
        stream.markdown(`${t('{0} asks the model:', `*/${cmd.name}*`)}\n\n> ${text.replace(/\n/g, '\n> ')}\n\n`);
      },
      display: (text) => void stream.markdown(text),
      toolPrompt: (p) => {
        prompt = p.prompt;
        prelude = { tool: p.tool, args: p.args };
        stream.markdown(`${t('{0} runs {1}, then asks the model:', `*/${cmd.name}*`, `\`${p.tool}\``)}\n\n> ${p.prompt.replace(/\n/g, '\n> ')}\n\n`);
      },
    });
    if (action === 'error') return done('command_error');
    if (action === 'insert' || action === 'open_panel') {
      stream.markdown(action === 'insert' ? t('Inserted the text from {0} into the editor.', `\`/${cmd.name}\``) : t('Opened the panel of {0}.', `\`/${cmd.name}\``));
    }
    if (action !== 'prompt' && action !== 'tool_prompt') return done(action);
  }
  return runModelLoop({ host, maxSteps: deps.maxSteps(), ...state, ...(prelude && { prelude }), log: (line) => deps.log?.(line) }, request, chatContext, prompt, stream, token);
}

/**
 * The session of this request's conversation, announced when it changes: a
 * chat with no history is a new session; one whose replies name a session
 * other than the last one asked is a switch, announced again as terva does.
 */
async function enterSession(deps: ChatDeps, current: { id?: string }, chatContext: vscode.ChatContext): Promise<string | undefined> {
  const host = deps.host();
  await host.whenLoaded();
  const sessions = deps.sessions;
  if (chatContext.history.length === 0) {
    // Untitled: the prompt has not passed the guards yet (a blocked one is never sent on nor stored).
    const started = sessions?.begin();
    current.id = started?.id;
    host.beginSession(started?.identity);
    return started?.id;
  }
  const named = sessions?.resume(lastSessionId(chatContext));
  // The host announces a session only when it is not the active one already (another chat was, or the folder changed).
  if (named) {
    current.id = named.id;
    host.beginSession(named.identity);
  }
  return named?.id;
}

/** The session id the conversation's latest reply carries in its metadata. */
function lastSessionId(chatContext: vscode.ChatContext): unknown {
  for (let i = chatContext.history.length - 1; i >= 0; i--) {
    const turn = chatContext.history[i];
    if (turn instanceof vscode.ChatResponseTurn) return (turn.result.metadata as { sessionId?: unknown } | undefined)?.sessionId;
  }
  return undefined;
}

/**
 * The stream, with every markdown part also kept in `into`. A plain object of
 * bound methods, not a Proxy: VS Code hands out a frozen stream, and a Proxy
 * of a frozen object may not change what its properties are.
 */
function recordingMarkdown(stream: vscode.ChatResponseStream, into: string[]): vscode.ChatResponseStream {
  const source = stream as unknown as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (let o: object | null = stream; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key === 'constructor' || key in copy) continue;
      const v = source[key];
      copy[key] = typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(stream) : v;
    }
  }
  copy['markdown'] = (value: string | vscode.MarkdownString): vscode.ChatResponseStream => {
    into.push(typeof value === 'string' ? value : value.value);
    stream.markdown(value);
    return copy as unknown as vscode.ChatResponseStream;
  };
  return copy as unknown as vscode.ChatResponseStream;
}

function commandList(host: HostReader): string {
  const cmds = host.commands().filter((c) => c.active);
  if (cmds.length === 0) return '';
  return t('Available: {0}.', cmds.map((c) => `\`/${c.name}\``).join(', '));
}

function helpText(host: HostReader): string {
  const lines = [t('{0} runs zot extensions\' commands and gives their tools to the model.', '**@zot**'), ''];
  const cmds = host.commands().filter((c) => c.active);
  const tools = host.tools().filter(isOffered);
  lines.push(cmds.length ? t('**Commands** (type them after `@zot`):') : t('No zot extension provides commands right now.'));
  for (const c of cmds) lines.push(`- \`/${c.name}\`${c.description ? ` — ${c.description}` : ''} *(${c.extension})*`);
  lines.push('', tools.length ? t('**Tools** the model can call:') : t('No zot extension provides tools right now.'));
  for (const tool of tools) lines.push(`- \`${tool.name}\`${tool.interactive ? ` ${t('(asks you)')}` : ''}${tool.description ? ` — ${tool.description}` : ''} *(${tool.extension})*`);
  const failed = host.extensions.filter((e) => e.status.kind === 'failed' || e.status.kind === 'held');
  if (failed.length) {
    lines.push('', `**${t('Not running:')}**`);
    for (const e of failed) lines.push(`- ${e.name}: ${e.error ?? stateOf(e)}`);
  }
  lines.push('', t('Built-ins: {0}.', '`/help`, `/reload`'));
  return lines.join('\n');
}
