/**
 * How a zot tool's outcome reaches the model: its blocks as text and image
 * parts, and, for every outcome other than a completion, one sentence that
 * says exactly what happened.
 */
import * as vscode from 'vscode';
import type { ContentBlock } from '../../protocol/index.js';
import { blocksText, decodableImage, type ToolOutcome } from '../../host/index.js';

/** The sentence for an outcome that is not a plain completion, as the model and the user read it. */
export function describeOutcome(o: ToolOutcome, byUser: boolean): string {
  switch (o.outcome) {
    case 'completed':
      return o.isError ? 'the tool reported an error' : 'completed';
    case 'canceled':
      return byUser ? 'canceled by the user; the extension was told to stop' : o.message;
    case 'abandoned':
      return byUser
        ? 'abandoned: this extension cannot be cancelled, its work may still finish'
        : `abandoned: ${o.message}`;
    case 'timed_out':
      return o.message;
    case 'not_run':
      return `not run: ${o.message}`;
    case 'disconnected':
      return `failed: ${o.message}`;
  }
}

export function toResultParts(o: ToolOutcome, byUser: boolean): (vscode.LanguageModelTextPart | vscode.LanguageModelDataPart)[] {
  if (o.outcome !== 'completed') {
    // A blocked call carries the interceptor's reason as its content: that is what the model must read.
    const reason = o.content.length ? `${blocksText(o.content)}\n` : '';
    return [new vscode.LanguageModelTextPart(`${reason}(${describeOutcome(o, byUser)})`)];
  }
  const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelDataPart)[] = [];
  if (o.isError) parts.push(new vscode.LanguageModelTextPart('The tool reported an error:'));
  for (const b of o.content) parts.push(toPart(b));
  if (parts.length === (o.isError ? 1 : 0)) parts.push(new vscode.LanguageModelTextPart('(the extension returned no content)'));
  return parts;
}

function toPart(b: ContentBlock): vscode.LanguageModelTextPart | vscode.LanguageModelDataPart {
  if (b.type === 'text') {
    const text = (b as { text?: unknown }).text;
    return new vscode.LanguageModelTextPart(typeof text === 'string' ? text : '');
  }
  const image = decodableImage(b);
  if (image) return vscode.LanguageModelDataPart.image(Buffer.from(image.data, 'base64'), image.mime);
  if (b.type === 'image') return new vscode.LanguageModelTextPart('[the extension sent an image that could not be decoded]');
  return new vscode.LanguageModelTextPart(`[unknown block type "${b.type}" from the extension]`);
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
