/**
 * Panel widgets as lines of plain text, for the front ends that show text
 * (the QuickPick panel, the CLI, a headless host): a heading as `#`, a meter
 * as a bar with its numbers, key-value rows and tables aligned in columns, a
 * list as bullets, a group indented, an action as `[ label ]`. A line that
 * can be activated carries the action's id.
 */
import type { Widget, WidgetTone } from '../../protocol/index.js';

export interface WidgetLine {
  readonly text: string;
  /** The `action_id` this line activates: an `action` node, or a list item that has one. */
  readonly action?: string;
}

/** Cells of a meter's bar. */
const BAR = 20;
const INDENT = '  ';
/** Tones as a mark in text: default and muted have none. */
const TONE_MARK: Partial<Record<WidgetTone, string>> = { ok: '✓ ', warn: '! ', danger: '✗ ' };

export function widgetLines(widgets: readonly Widget[], indent = ''): WidgetLine[] {
  const out: WidgetLine[] = [];
  const line = (text: string, action?: string): void => void out.push(action ? { text: indent + text, action } : { text: indent + text });
  for (const w of widgets) {
    if (w.label && w.type !== 'meter') line(flat(w.label));
    switch (w.type) {
      case 'heading':
        line(`${'#'.repeat(Math.min(Math.max(Math.trunc(w.level ?? 1), 1), 6))} ${flat(w.text)}`);
        break;
      case 'text':
        for (const l of paragraph(w.text)) line(mark(w.tone) + l);
        break;
      case 'note':
        for (const l of paragraph(w.text)) line(`│ ${mark(w.tone)}${l}`);
        break;
      case 'meter':
        line(meter(w.label, w.value, w.max, w.unit));
        break;
      case 'keyvalue': {
        const width = Math.max(0, ...w.rows.map((r) => flat(r.key).length));
        for (const r of w.rows) line(`${flat(r.key).padEnd(width)}  ${flat(r.value)}${r.note ? `  (${flat(r.note)})` : ''}`);
        break;
      }
      case 'table':
        for (const l of table(w.columns, w.cells)) line(l);
        break;
      case 'list':
        for (const i of w.items) line(`• ${mark(i.tone)}${flat(i.text)}${i.note ? ` — ${flat(i.note)}` : ''}${i.action_id ? ' ↵' : ''}`, i.action_id);
        break;
      case 'group':
        out.push(...widgetLines(w.children, indent + INDENT));
        break;
      case 'action':
        line(`[ ${flat(w.text) || w.action_id || ''} ]`, w.action_id);
        break;
      case 'divider':
        line('─'.repeat(BAR * 2));
        break;
    }
  }
  return out;
}

/** `label  [█████░░░]  9 / 12 unit`; without a max, the value alone. */
function meter(label: string | undefined, value: number, max: number, unit: string | undefined): string {
  const head = label ? `${flat(label)}  ` : '';
  const tail = unit ? ` ${flat(unit)}` : '';
  if (!(max > 0)) return `${head}${value}${tail}`;
  const filled = Math.round(BAR * Math.min(Math.max(value / max, 0), 1));
  return `${head}[${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}]  ${value} / ${max}${tail}`;
}

/** Columns padded to their widest cell, the header ruled off. */
function table(columns: readonly string[], cells: readonly (readonly string[])[]): string[] {
  const rows = cells.map((r) => r.map(flat));
  const head = columns.map(flat);
  const n = Math.max(head.length, ...rows.map((r) => r.length));
  const widths = Array.from({ length: n }, (_, c) => Math.max(head[c]?.length ?? 0, ...rows.map((r) => r[c]?.length ?? 0)));
  const row = (r: readonly string[]): string => widths.map((w, c) => (r[c] ?? '').padEnd(w)).join('  ').trimEnd();
  return [...(head.length ? [row(head), widths.map((w) => '─'.repeat(w)).join('  ')] : []), ...rows.map(row)];
}

function mark(tone: WidgetTone | undefined): string {
  return (tone && TONE_MARK[tone]) ?? '';
}

/** A paragraph's own line breaks kept. */
function paragraph(text: string): string[] {
  return text.split(/\r?\n/);
}

/** One line: a line break inside a cell or a label becomes a space. */
function flat(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ');
}
