/**
 * The earlier turns of a @zot chat as the model sees them on the next
 * request: each model turn's prompt, then its rounds in order (the model's
 * text and tool calls, then each call's result or how it ended), bounded by
 * boundHistory. Turns the model had no part in (/help, /reload, `display`
 * and `insert` commands, blocked prompts) are left out, as zot does.
 */
import * as vscode from 'vscode';
import { boundHistory, readRounds, type Round } from './rounds.js';
import { replayParts } from './toolResults.js';

/** What a @zot result keeps in its metadata. */
export interface ZotTurnMetadata {
  stop: string;
  steps: number;
  toolCalls: { name: string; outcome: string }[];
  /** The model's own words, kept for the history even where an interceptor showed something else. */
  modelText?: string;
  /** The user message the model saw: set on every turn the model took part in. */
  prompt?: string;
  rounds?: Round[];
  /** The turn told the user that not every tool was sent. */
  toolsNote?: boolean;
  /** The conversation's session (terva's session_id), minted at its first request. */
  sessionId?: string;
  /** zot's deferred tools this turn's results activated: offered in this chat from then on. */
  activated?: string[];
}

export interface ChatHistory {
  messages: vscode.LanguageModelChatMessage[];
  /** zot tool names the earlier turns called, the newest first. */
  recentTools: string[];
  /** An earlier turn already said that not every tool was sent. */
  toolsNoteShown: boolean;
  /** zot's deferred tools activated in this chat by an earlier turn's result. */
  activated: Set<string>;
}

export function readHistory(chatContext: vscode.ChatContext): ChatHistory {
  const turns: { prompt: string; rounds: Round[] }[] = [];
  let toolsNoteShown = false;
  const activated = new Set<string>();
  let request: vscode.ChatRequestTurn | undefined;
  for (const turn of chatContext.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      request = turn;
      continue;
    }
    if (!(turn instanceof vscode.ChatResponseTurn)) continue;
    const meta = turn.result.metadata as Partial<ZotTurnMetadata> | undefined;
    if (meta?.toolsNote) toolsNoteShown = true;
    if (Array.isArray(meta?.activated)) for (const n of meta.activated) if (typeof n === 'string') activated.add(n);
    const replayed = replayedTurn(meta, request, turn);
    if (replayed) turns.push(replayed);
    request = undefined;
  }
  const bounded = boundHistory(turns.map((t) => t.rounds));
  const messages: vscode.LanguageModelChatMessage[] = [];
  turns.forEach((t, i) => {
    messages.push(vscode.LanguageModelChatMessage.User(t.prompt));
    for (const round of bounded[i]!) messages.push(...roundMessages(round));
  });
  const recentTools = turns.flatMap((t) => t.rounds.flatMap((r) => r.calls.map((c) => c.tool))).reverse();
  return { messages, recentTools, toolsNoteShown, activated };
}

function replayedTurn(meta: Partial<ZotTurnMetadata> | undefined, request: vscode.ChatRequestTurn | undefined, response: vscode.ChatResponseTurn): { prompt: string; rounds: Round[] } | undefined {
  if (meta && typeof meta.stop === 'string') {
    if (typeof meta.prompt !== 'string') return undefined; // the model had no part in it
    const rounds = readRounds(meta.rounds) ?? (meta.modelText ? [{ text: meta.modelText, calls: [] }] : []);
    return { prompt: meta.prompt, rounds };
  }
  // No metadata: VS Code dropped the result (a handler that did not return within a second of Stop).
  // Keep the prompt and what was shown, as long as it was a prompt for the model.
  if (!request || request.command) return undefined;
  const shown = response.response.map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
  return { prompt: request.prompt, rounds: shown ? [{ text: shown, calls: [] }] : [] };
}

function roundMessages(round: Round): vscode.LanguageModelChatMessage[] {
  const said = round.text ? [new vscode.LanguageModelTextPart(round.text)] : [];
  const calls = round.calls.map((c) => new vscode.LanguageModelToolCallPart(c.callId, c.name, c.input));
  if (said.length === 0 && calls.length === 0) return [];
  const out = [vscode.LanguageModelChatMessage.Assistant([...said, ...calls])];
  if (calls.length) out.push(vscode.LanguageModelChatMessage.User(round.calls.map((c) => new vscode.LanguageModelToolResultPart(c.callId, replayParts(c.result)))));
  return out;
}
