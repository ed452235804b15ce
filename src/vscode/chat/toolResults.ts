/**
 * Tool results as VS Code language model parts, the sentence the user reads
 * for a call that did not simply complete, and tool names the chat accepts.
 */
import * as vscode from 'vscode';
import type { ToolOutcome } from '../../host/index.js';
import type { CallEnding } from './callOutcome.js';
import type { LivePart } from './modelView.js';
import { imageNote, type SeenPart } from './rounds.js';
import { t } from '../l10n.js';

/** The sentence for an outcome that is not a plain completion, as the user reads it. */
export function describeOutcome(o: ToolOutcome, byUser: boolean): string {
  switch (o.outcome) {
    case 'completed':
      return o.isError ? t('the tool reported an error') : t('completed');
    case 'canceled':
      return byUser ? t('canceled by the user; the extension was told to stop') : o.message;
    case 'abandoned':
      return byUser
        ? t('abandoned: this extension cannot be cancelled, its work may still finish')
        : t('abandoned: {0}', o.message);
    case 'timed_out':
      return o.message;
    case 'not_run':
      return t('not run: {0}', o.message);
    case 'disconnected':
      return t('failed: {0}', o.message);
  }
}

/** As describeOutcome, for a call's final ending in the chat (which knows of results that came after Stop). */
export function describeEnding(o: ToolOutcome, e: CallEnding, byUser: boolean): string {
  if (e.end === 'late_result') return t('stopped; the extension finished the call after Stop anyway, and its result was dropped');
  return describeOutcome(o, byUser);
}

export function toModelParts(parts: readonly LivePart[]): (vscode.LanguageModelTextPart | vscode.LanguageModelDataPart)[] {
  return parts.map((p) => (p.kind === 'text'
    ? new vscode.LanguageModelTextPart(p.text)
    : p.kind === 'json' ? vscode.LanguageModelDataPart.json(p.value)
      : vscode.LanguageModelDataPart.image(Buffer.from(p.data, 'base64'), p.mime)));
}

/** A stored result as it is replayed: images by their description. */
export function replayParts(parts: readonly SeenPart[]): vscode.LanguageModelTextPart[] {
  const out = parts.map((p) => new vscode.LanguageModelTextPart(p.kind === 'text' ? p.text : imageNote(p)));
  return out.length ? out : [new vscode.LanguageModelTextPart('(no result was kept)')];
}

/** Names the chat accepts for a tool: letters, digits, `_` and `-`, at most 64 characters. */
export function chatToolName(name: string, taken: Set<string>): string {
  let base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool';
  let candidate = base;
  for (let i = 2; taken.has(candidate); i++) {
    const suffix = `_${i}`;
    candidate = base.slice(0, 64 - suffix.length) + suffix;
  }
  base = candidate;
  taken.add(base);
  return base;
}
