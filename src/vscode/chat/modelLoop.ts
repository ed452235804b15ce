/**
 * One @zot turn with the model, as the adapter of the host's agent turn
 * (src/host/turn/agentTurn.ts) to vscode.lm and the chat stream: the history
 * replayed, the tools chosen, then the host runs zot's model steps, events,
 * intercepts and tool calls until the model ends its turn, the step limit
 * or Stop. Every step is kept as a round in the result's metadata, with each
 * call's result as the model saw it, so later turns can replay it; after
 * Stop, the call that was running and those that never started are kept
 * with how they really ended.
 */
import * as vscode from 'vscode';
import { displaySubject, isOffered, type HostCalls, type JsonObject, type ModelPort, type ToolEntry, type ToolOutcome, type TurnResult, type TurnView } from '../../host/index.js';
import { callEnd } from './callOutcome.js';
import { readHistory, type ZotTurnMetadata } from './history.js';
import { MAX_TOOLS_PER_REQUEST, STOP_SETTLE_MS } from './limits.js';
import { resultForModel, seenParts, type LivePart, type ModelAbilities } from './modelView.js';
import { keepForHistory, type Round } from './rounds.js';
import { chooseTools, mostRecentFirst } from './toolChoice.js';
import { chatToolName, describeEnding, toModelParts } from './toolResults.js';
import { watchWorkspace } from './workspaceWatch.js';
import { SystemPrompts } from './systemPrompt.js';
import { t } from '../l10n.js';

export interface LoopDeps {
  host: HostCalls;
  maxSteps: number;
  /** zot tool names called in this window, the newest first; the loop adds to it. */
  recentTools: string[];
  log(line: string): void;
  /** Each chat session's system prompt, as `before_agent_start` left it; without it, asked every request. */
  systemPrompts?: SystemPrompts;
  /** The chat session this request belongs to (ChatSessions), when there is one. */
  sessionId?: string;
  /** zot's tool_prompt: a tool run through the door before the model's first step; the model reads its call and result. */
  prelude?: { tool: string; args: Record<string, unknown> };
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
  let modelText = '';
  let toolsNote = false;

  const history = readHistory(chatContext);
  // zot's deferred tools wait for a result of this chat to activate them; callable by name meanwhile.
  const activated = history.activated;
  const choice = chooseTools(host.tools().filter((x) => isOffered(x) && (!x.deferred || activated.has(x.name))), prompt, mostRecentFirst([history.recentTools, deps.recentTools]), MAX_TOOLS_PER_REQUEST);
  // Tools as the model sees them; chat names must be plain, so keep a map back to zot's names.
  const byChatName = new Map<string, string>();
  const taken = new Set<string>();
  const tools: vscode.LanguageModelChatTool[] = choice.chosen.map((t) => {
    const name = chatToolName(t.name, taken);
    byChatName.set(name, t.name);
    return { name, description: t.description || `${t.name} (from the zot extension ${t.extension})`, inputSchema: t.schema };
  });
  const abilities = modelAbilities(model);
  // The system prompt (terva's standing context of the running extensions) leads the conversation, as zot's
  // before_agent_start left it for this session: asked at the session's first request, after a model change or reload.
  const system = (deps.systemPrompts ?? new SystemPrompts()).forRequest(host, deps.sessionId, model);
  const messages = [...history.messages];
  const lead = (text: string): void => void (text && messages.unshift(vscode.LanguageModelChatMessage.User(text)));
  if (system.prompt !== undefined) lead(system.prompt);
  /** The model's own parts of the current step, by call id, for the conversation. */
  let parts = new Map<string, vscode.LanguageModelToolCallPart>();
  /** What the model sees of each ended call of the step, by call id: made once, for the conversation and the history. */
  const seen = new Map<string, LivePart[]>();
  let round: Round = { text: '', calls: [] };
  const newlyActivated: string[] = [];

  /** The prompt as the guards left it: what the model saw, what the history replays and the session keeps. */
  let seenPrompt = prompt;
  const port: ModelPort = {
    system(text) {
      system.keep(text);
      lead(text);
    },
    // The prompt as the user_message interceptors left it is what the model receives.
    prompt(text) {
      seenPrompt = text;
      messages.push(vscode.LanguageModelChatMessage.User(text));
    },
    async step(stepToken) {
      let text = '';
      const calls: vscode.LanguageModelToolCallPart[] = [];
      // terva's context cards: the live state, last in each request and never kept in the conversation.
      const cards = host.contextCards();
      try {
        const response = await model.sendRequest(cards ? [...messages, vscode.LanguageModelChatMessage.User(cards)] : messages, { tools, justification: 'zot extensions provide the tools for this request' }, stepToken as vscode.CancellationToken);
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) text += part.value;
          else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
        }
      } catch (err) {
        if (!stepToken.isCancellationRequested) throw err;
      }
      parts = new Map(calls.map((c) => [c.callId, c]));
      return { text, calls: calls.map((c) => ({ id: c.callId, name: byChatName.get(c.name) ?? c.name, input: c.input })) };
    },
    replied(step) {
      messages.push(vscode.LanguageModelChatMessage.Assistant([...(step.text ? [new vscode.LanguageModelTextPart(step.text)] : []), ...parts.values()]));
    },
    results(ended) {
      messages.push(vscode.LanguageModelChatMessage.User(ended.map((e) => new vscode.LanguageModelToolResultPart(e.call.id, toModelParts(seen.get(e.call.id) ?? [])))));
      seen.clear();
    },
    // As zot records a tool_prompt: after the prompt, the assistant's call (made for it) and its result, before the first step.
    prelude(ended) {
      const name = chatNameOf(ended.call.name);
      const part = new vscode.LanguageModelToolCallPart(ended.call.id, name, ended.call.input as object);
      parts = new Map([[ended.call.id, part]]);
      messages.push(vscode.LanguageModelChatMessage.Assistant([part]));
      round = { text: '', calls: round.calls };
      rounds.push(round);
      this.results([ended]);
    },
  };

  /** A deferred tool a result named: offered from the next step on; an unknown name or one offered already changes nothing. */
  function activate(tool: string): void {
    if (!host.findTool(tool)?.deferred || activated.has(tool)) return;
    activated.add(tool);
    newlyActivated.push(tool);
    chatNameOf(tool);
  }

  /** A zot tool's name as this request offers it to the model; a tool not chosen is offered from now on (the model has seen it called). */
  function chatNameOf(tool: string): string {
    for (const [chat, zot] of byChatName) if (zot === tool) return chat;
    const name = chatToolName(tool, taken);
    byChatName.set(name, tool);
    const entry = host.findTool(tool);
    if (entry) tools.push({ name, description: entry.description || `${tool} (from the zot extension ${entry.extension})`, inputSchema: entry.schema });
    return name;
  }

  const view: TurnView = {
    started: () => noteOnce(),
    blocked: (what, by, reason) => stream.markdown(`**${what === 'turn' ? t('Turn blocked by the zot extension {0}:', `\`${by}\``) : t('Blocked by the zot extension {0}:', `\`${by}\``)}** ${reason}`),
    text: (shown) => stream.markdown(shown),
    hidden: (by, reason) => stream.markdown(`*(${t('A message was hidden by the zot extension {0}: {1}', `\`${by}\``, reason)})*\n\n`),
    cutShort: (text) => rounds.push({ text, calls: [] }),
    stepReplied: (step) => {
      modelText += step.text;
      round = { text: step.text, calls: [] };
      rounds.push(round);
    },
    callStarting: (call) => {
      // terva's display.subject: what the call is about, as plain text with its secrets masked.
      const tool = host.findTool(call.name);
      const subject = tool?.display?.subject && typeof call.input === 'object' && call.input !== null && !Array.isArray(call.input)
        ? displaySubject(tool.display.subject, call.input as JsonObject, tool.display.redact) : '';
      stream.progress(subject ? t('Running {0}: {1}…', call.name, subject) : t('Running {0}…', call.name));
    },
    callEnded: (e) => {
      const ending = callEnd(e.outcome);
      const live = resultForModel(ending, e.byStop, abilities);
      seen.set(e.call.id, live);
      round.calls.push({ callId: e.call.id, name: parts.get(e.call.id)?.name ?? e.call.name, tool: e.call.name, input: e.call.input as Record<string, unknown>, end: ending.end, result: keepForHistory(seenParts(live)) });
      if (e.neverStarted) return;
      // zot's format "markdown": the extension asks for its text to be shown; untrusted (no command links, no HTML). The model reads the same text.
      const shown = ending.end === 'completed' ? markdownBlocks(e.outcome) : '';
      if (shown) stream.markdown(untrusted(shown));
      toolCalls.push({ name: e.call.name, outcome: ending.end });
      bumpRecent(deps.recentTools, e.call.name);
      // Activated tools join this request's list at once and the chat's from now on (the metadata keeps them).
      if (e.outcome.outcome === 'completed') for (const name of e.outcome.activate ?? []) activate(name);
      if (ending.end !== 'completed') stream.markdown(`\n\n> \`${e.call.name}\`: ${describeEnding(e.outcome, ending, e.byStop)}\n\n`);
    },
    modelFailed: (message) => stream.markdown(message),
  };

  // The note about tools left out comes once the request is not blocked, before its first step.
  function noteOnce(): void {
    if (!choice.left.length || history.toolsNoteShown || toolsNote) return;
    stream.markdown(toolsNoteText(choice.chosen.length, choice.left, choice.named));
    deps.log(`@zot: ${choice.chosen.length + choice.left.length} active tools, a request carries at most ${MAX_TOOLS_PER_REQUEST}; sent ${choice.chosen.length}${choice.named.length ? ` (first those of ${choice.named.join(', ')}, named in the prompt)` : ''}, not sent ${choice.left.length}: ${choice.left.map((t) => t.name).join(', ')}`);
    toolsNote = true;
  }

  // terva's workspace_changed: the folder is watched while the request runs, and its net change follows run_end.
  const watch = watchWorkspace(host, deps.log);
  let ran = false;
  let turn: TurnResult;
  try {
    const images = imageCount(request.references);
    turn = await host.runTurn(port, view, {
      prompt, maxSteps: deps.maxSteps, token, lateWithinMs: STOP_SETTLE_MS, describeError: modelErrorMessage,
      ...(images && { imageCount: images }), ...(system.startup && { startup: system.startup }), ...(deps.prelude && { prelude: deps.prelude }),
    });
    ran = !(turn.stop === 'blocked' && turn.steps === 0);
  } finally {
    watch?.end(ran);
  }
  if (turn.stop === 'blocked' && turn.steps === 0) return { metadata: { stop: 'blocked', steps: 0, toolCalls } };
  if (turn.stop === 'canceled' && !turn.stoppedInCall) stream.markdown(`\n\n${t('Stopped.')}`);
  if (turn.stop === 'max_steps') stream.markdown(`\n\n${t('Stopped after {0} steps (the {1} setting).', deps.maxSteps, '`zot.chat.maxSteps`')}`);
  deps.log(`@zot: the request ended (${turn.stop}) after ${turn.steps} step(s)`);
  return { metadata: { stop: turn.stop, steps: turn.steps, toolCalls, modelText, prompt: seenPrompt, rounds, ...(toolsNote ? { toolsNote } : {}), ...(newlyActivated.length && { activated: newlyActivated }) } };
}

/** The text blocks of a result the extension marked as Markdown (zot's `format`), joined; '' when none. */
function markdownBlocks(o: ToolOutcome): string {
  return o.content.filter((b) => b.type === 'text' && b.format === 'markdown').map((b) => (b.type === 'text' ? b.text : '')).join('\n\n');
}

/** An extension's Markdown, shown with nothing it could run: no command links, no HTML. */
function untrusted(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(`\n\n${text}\n\n`);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** zot's `image_count`: the images attached to the prompt (binary image data, or image files). */
function imageCount(refs: readonly vscode.ChatPromptReference[] | undefined): number {
  let n = 0;
  for (const r of refs ?? []) {
    const v = r.value as { mimeType?: unknown; path?: unknown } | undefined;
    if ((typeof v?.mimeType === 'string' && v.mimeType.startsWith('image/')) || (typeof v?.path === 'string' && /\.(png|jpe?g|gif|webp|bmp)$/i.test(v.path))) n++;
  }
  return n;
}

function bumpRecent(recent: string[], name: string): void {
  const at = recent.indexOf(name);
  if (at >= 0) recent.splice(at, 1);
  recent.unshift(name);
  if (recent.length > 1000) recent.length = 1000;
}

function toolsNoteText(sent: number, left: readonly ToolEntry[], named: readonly string[]): string {
  const total = sent + left.length;
  const first = named.length ? t('the tools of {0} (named in your prompt), then the most recently used', named.map((n) => `\`${n}\``).join(', ')) : t('the most recently used first');
  const shown = left.slice(0, 10).map((tool) => `\`${tool.name}\``).join(', ');
  const notSent = left.length > 10 ? t('{0} and {1} more', shown, left.length - 10) : shown;
  return `*${t('zot extensions provide {0} tools and a request carries at most {1}, so this chat sends {2}: {3}. Name an extension in your prompt to have its tools sent. Not sent: {4}.', total, MAX_TOOLS_PER_REQUEST, sent, first, notSent)}*\n\n`;
}

/** What the request's model says it takes; VS Code exposes it at run time only. */
function modelAbilities(model: vscode.LanguageModelChat): ModelAbilities {
  const caps = (model as unknown as { capabilities?: { supportsImageToText?: unknown } }).capabilities;
  return { images: typeof caps?.supportsImageToText === 'boolean' ? caps.supportsImageToText : undefined };
}

function modelErrorMessage(err: unknown): string {
  if (err instanceof vscode.LanguageModelError) {
    if (err.code === vscode.LanguageModelError.NoPermissions.name) return t('The language model refused this request: permission was not granted.');
    if (err.code === vscode.LanguageModelError.NotFound.name) {
      return t('No language model is available for chat. Sign in to a model provider (for example GitHub Copilot) or pick a model in the chat view, then ask again.');
    }
    if (err.code === vscode.LanguageModelError.Blocked.name) return t('The language model provider blocked this request (quota or policy).');
  }
  return t('The language model failed: {0}', (err as Error).message ?? String(err));
}
