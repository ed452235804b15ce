/**
 * What the model sees of one tool call's result: its blocks as text and
 * images, cut to RESULT_TEXT_MAX_BYTES of text with a note of the original
 * size, images the model cannot take described instead, and for every call
 * that did not simply complete, the words that say how it ended.
 */
import type { ContentBlock } from '../../protocol/index.js';
import { blocksText, boundedStringify, decodableImage, decodedBytes } from '../../host/index.js';
import { cutParts, formatBytes, RESULT_TEXT_MAX_BYTES, type TextPart } from './limits.js';
import { wordsForModel, type CallEnding } from './callOutcome.js';
import type { SeenPart } from './rounds.js';

/** `note`: a part the chat added to say what it cut; the history keeps it whole. */
export type LivePart = TextPart | { kind: 'image'; mime: string; data: string } | { kind: 'json'; value: unknown };

/** Image types common chat models take as input. */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** `images`: whether the request's model takes images; undefined when the model does not say. */
export interface ModelAbilities {
  images: boolean | undefined;
}

export function resultForModel(ending: CallEnding, byStop: boolean, model: ModelAbilities): LivePart[] {
  const blocks = ending.content;
  if (ending.end !== 'completed' && ending.end !== 'error') {
    // A blocked call carries the interceptor's reason as its content: that is what the model must read.
    const reason = blocks.length ? `${blocksText(blocks)}\n` : '';
    return cutText([{ kind: 'text', text: `${reason}(${wordsForModel(ending, byStop)})` }]);
  }
  const parts: LivePart[] = [];
  if (ending.end === 'error') parts.push({ kind: 'text', text: 'The tool reported an error:' });
  const start = parts.length;
  for (const b of blocks) parts.push(toPart(b, model));
  if (parts.length === start) parts.push({ kind: 'text', text: '(the extension returned no content)' });
  // zot's structured_content: after the text the model reads, as JSON data for a model that takes it.
  if (ending.structured !== undefined) parts.push({ kind: 'json', value: ending.structured });
  return cutText(parts);
}

function toPart(b: ContentBlock, model: ModelAbilities): LivePart {
  if (b.type === 'text') return { kind: 'text', text: b.text };
  const image = decodableImage(b);
  if (image) {
    const why = model.images === false ? 'this model does not take images'
      : !MODEL_IMAGE_TYPES.has(image.mime.toLowerCase()) ? 'models take PNG, JPEG, GIF and WebP images only'
        : undefined;
    if (!why) return { kind: 'image', mime: image.mime, data: image.data };
    return { kind: 'text', text: `[the extension sent an image (${image.mime}, ${formatBytes(decodedBytes(image.data))}) that is not shown to the model: ${why}]` };
  }
  if (b.type === 'image') return { kind: 'text', text: '[the extension sent an image that could not be decoded]' };
  return { kind: 'text', text: `[unknown block type "${b.other_type}" from the extension]` };
}

/** Keeps the first RESULT_TEXT_MAX_BYTES of the result's text, across its text parts, and says so when it cuts. */
function cutText(parts: LivePart[]): LivePart[] {
  return cutParts(parts, RESULT_TEXT_MAX_BYTES, (total) => `[cut: the tool returned ${formatBytes(total)} of text; the model sees the first ${formatBytes(RESULT_TEXT_MAX_BYTES)}]`);
}

/** The result as it is stored for the history: images by type and size only. */
export function seenParts(parts: readonly LivePart[]): SeenPart[] {
  return parts.map((p): SeenPart => (p.kind === 'text' ? p : p.kind === 'json' ? { kind: 'text', text: boundedStringify(p.value) } : { kind: 'image', mime: p.mime, bytes: decodedBytes(p.data) }));
}
