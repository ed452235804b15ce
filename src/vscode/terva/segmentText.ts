/**
 * How one extension's status segments read in the status bar (docs/TERVA.md 22):
 * joined on one item, and never able to draw an icon. The status bar renders
 * `$(name)` as a codicon and `\$(name)` as the literal text, so every
 * `$(name)` an extension sends gets a backslash of its own: whatever precedes
 * it, the icon syntax is always escaped and the text shows exactly as sent.
 * A `$(` that is no icon syntax is left alone (a backslash would show).
 */
import type { StatusEntry } from '../../host/index.js';
import { t } from '../l10n.js';

/** Between two segments of one extension. */
export const SEGMENT_SEPARATOR = ' · ';

/** VS Code's icon syntax (ThemeIcon's iconNameExpression and iconModifierExpression). */
const ICON = /\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g;

/** `text` with no way to render a codicon, showing the same characters. */
export function escapeIcons(text: string): string {
  return text.replace(ICON, (icon) => `\\${icon}`);
}

/** What the item shows, before escaping: the segments in the order they came. */
export function segmentsLine(entry: StatusEntry): string {
  return entry.segments.map((s) => s.text).join(SEGMENT_SEPARATOR);
}

/** The item's text: the segments joined, icons escaped. */
export function segmentItemText(entry: StatusEntry): string {
  return escapeIcons(segmentsLine(entry));
}

/** The item's name in the status bar's menu (which items to show). */
export function segmentItemName(extension: string): string {
  return `zot: ${extension}`;
}

/** A plain-text tooltip (rendered as text, no Markdown, no icons): the extension, each segment by id, what a click does. */
export function segmentTooltip(entry: StatusEntry): string {
  return [
    t('zot extension {0}', entry.extension),
    ...entry.segments.map((s) => `${s.id}: ${s.text}`),
    t('Click to show its log.'),
  ].join('\n');
}
