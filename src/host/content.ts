/**
 * Reading the content blocks of a tool result, for every place that turns
 * them into something else (chat parts, MCP content, messages).
 */
import type { ContentBlock } from '../protocol/index.js';

/** The blocks as one text: text blocks as they are, any other block as `[its type]`. */
export function blocksText(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? String((b as { text?: unknown }).text ?? '') : `[${b.type}]`)).join('\n');
}

/** An image block's data and MIME type, or undefined when it is not an image that can be decoded. */
export function decodableImage(block: ContentBlock): { data: string; mime: string } | undefined {
  if (block.type !== 'image') return undefined;
  const { data, mime_type: mime } = block as { data?: unknown; mime_type?: unknown };
  if (typeof data !== 'string' || typeof mime !== 'string' || !mime || !isBase64(data)) return undefined;
  return { data, mime };
}

/**
 * A tool result's blocks as zot reads them: an image whose data is not
 * base64 becomes a text block saying so, and makes the whole result an
 * error. An image with empty data passes, as in zot (it decodes to nothing).
 */
export function checkImages(blocks: ContentBlock[], who: string): { content: ContentBlock[]; undecodable: number } {
  let undecodable = 0;
  const content = blocks.map((b): ContentBlock => {
    if (b.type !== 'image') return b;
    const data = (b as { data?: unknown }).data;
    if (data === '' || (typeof data === 'string' && isBase64(data))) return b;
    undecodable++;
    return { type: 'text', text: `${who} returned an image whose data is not valid base64` };
  });
  return { content, undecodable };
}

function isBase64(s: string): boolean {
  return s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s);
}
