/**
 * Reading the content blocks of a tool result, for every place that turns
 * them into something else (chat parts, MCP content, CLI text, messages).
 * Blocks are the closed union validation produces (protocol ContentBlock).
 */
import type { ContentBlock } from '../../protocol/index.js';

/** The blocks as one text: text blocks as they are, any other block as `[its type]`. */
export function blocksText(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : `[${blockType(b)}]`)).join('\n');
}

/** The type the extension gave a block. */
export function blockType(b: ContentBlock): string {
  return b.type === 'other' ? b.other_type : b.type;
}

/** An image block's data and MIME type, or undefined when it is not an image that can be decoded. */
export function decodableImage(block: ContentBlock): { data: string; mime: string } | undefined {
  if (block.type !== 'image' || !block.mime_type || !isBase64(block.data)) return undefined;
  return { data: block.data, mime: block.mime_type };
}

/** The size in bytes of base64 data once decoded (padding counted out). */
export function decodedBytes(base64: string): number {
  const pad = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - pad);
}

/** A block as the extension sent it (an OtherBlock's own block), for output that shows blocks raw. */
export function wireBlock(b: ContentBlock): Record<string, unknown> {
  return b.type === 'other' ? b.block : { ...b };
}

/**
 * How many of a tool result's images zot could not read: data that is not
 * base64. An image with empty data passes, as in zot (it decodes to nothing).
 * Most results hold no image, or only good ones: 0, with nothing made.
 */
export function undecodableImages(blocks: readonly ContentBlock[]): number {
  let n = 0;
  for (let i = 0; i < blocks.length; i++) if (badImage(blocks[i]!)) n++;
  return n;
}

/** The blocks as zot reads them when some image is undecodable: each such image becomes a text block saying so. */
export function replaceUndecodable(blocks: readonly ContentBlock[], ext: string, tool: string): ContentBlock[] {
  return blocks.map((b): ContentBlock => (badImage(b) ? { type: 'text', text: `extension "${ext}" tool "${tool}" returned an image whose data is not valid base64` } : b));
}

function badImage(b: ContentBlock): boolean {
  return b.type === 'image' && b.data !== '' && !isBase64(b.data);
}

function isBase64(s: string): boolean {
  return s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s);
}
