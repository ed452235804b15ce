/**
 * Panel widgets (terva): a tree of nodes that say what they are (a meter, a
 * table) and leave the drawing to the client. They ride on a panel spec and
 * on `panel_render` beside `lines`, which stay the form for clients that
 * cannot draw them.
 *
 * What validation makes of them: every known node as the closed union below,
 * with only its own fields, each of the type it must have (a wrong one is a
 * problem naming where it is); a zero value that terva's encoder left out
 * filled in (`text` ""); a `tone` this host does not know left out (drawn as
 * default); a node of an unknown `type` skipped, never failing the panel.
 * Everything is text: no markup is ever read from it.
 */

export const WIDGET_TONES = ['default', 'muted', 'danger', 'ok', 'warn'] as const;
export type WidgetTone = (typeof WIDGET_TONES)[number];

/**
 * Nodes on one path from the top (a node inside seven nested groups is at
 * the last level). A panel has no readable drawing deeper than that (each
 * group indents), and the JSON of such a tree stays near 20 levels, well
 * inside the frame's bound (MAX_JSON_DEPTH, 64), so a tree this deep is
 * refused by this bound, with a problem that names widgets.
 */
export const MAX_WIDGET_DEPTH = 8;
/**
 * Parts in one tree: each node, key-value row, list item, table column and
 * table cell counts one. Each is at least one element in the webview and a
 * line of text elsewhere, drawn again on every render; 2,000 is a table of
 * a few hundred rows, past what a panel is read for.
 */
export const MAX_WIDGET_PARTS = 2000;

interface Labelled {
  /** Any node may carry one; terva uses it on meters. */
  label?: string;
}
export interface HeadingWidget extends Labelled { type: 'heading'; text: string; /** 1 = top; absent = 0, drawn as 1. */ level?: number }
export interface TextWidget extends Labelled { type: 'text' | 'note'; text: string; tone?: WidgetTone }
export interface MeterWidget extends Labelled { type: 'meter'; value: number; max: number; unit?: string }
export interface KeyValueRow { key: string; value: string; note?: string; /** A fixed-width value. */ mono?: boolean }
export interface KeyValueWidget extends Labelled { type: 'keyvalue'; rows: KeyValueRow[] }
export interface TableWidget extends Labelled { type: 'table'; columns: string[]; cells: string[][] }
export interface ListItem { text: string; note?: string; tone?: WidgetTone; /** Present and non-empty: the item can be activated. */ action_id?: string }
export interface ListWidget extends Labelled { type: 'list'; items: ListItem[] }
export interface GroupWidget extends Labelled { type: 'group'; children: Widget[] }
/** A button; without an `action_id` it cannot be pressed. */
export interface ActionWidget extends Labelled { type: 'action'; text: string; action_id?: string }
export interface DividerWidget extends Labelled { type: 'divider' }

export type Widget = HeadingWidget | TextWidget | MeterWidget | KeyValueWidget | TableWidget | ListWidget | GroupWidget | ActionWidget | DividerWidget;
export type WidgetType = Widget['type'];

/** A tree as validation leaves it, or why it is refused. Never throws. */
export function readWidgets(raw: unknown): Widget[] | string {
  if (!Array.isArray(raw)) return `must be a list of widgets, got ${kindOf(raw)}`;
  const count = { parts: 0 };
  try {
    return nodes(raw, 1, count, '');
  } catch (err) {
    if (err instanceof WidgetProblem) return err.message;
    throw err;
  }
}

/** Every `action_id` a tree offers, in order: the actions a UI may send back. */
export function widgetActions(widgets: readonly Widget[], into: string[] = []): string[] {
  for (const w of widgets) {
    if (w.type === 'action' && w.action_id) into.push(w.action_id);
    else if (w.type === 'list') {
      for (const i of w.items) if (i.action_id) into.push(i.action_id);
    } else if (w.type === 'group') widgetActions(w.children, into);
  }
  return into;
}

class WidgetProblem extends Error {}

function nodes(list: unknown[], depth: number, count: { parts: number }, at: string): Widget[] {
  if (depth > MAX_WIDGET_DEPTH) throw new WidgetProblem(`${at}: groups nest deeper than ${MAX_WIDGET_DEPTH} levels`);
  const out: Widget[] = [];
  for (let i = 0; i < list.length; i++) {
    const where = `${at}${at ? ' child' : 'item'} ${i}`;
    const n = list[i];
    if (typeof n !== 'object' || n === null || Array.isArray(n) || typeof (n as { type?: unknown }).type !== 'string') {
      throw new WidgetProblem(`${where} must be an object with a string "type"`);
    }
    add(count, 1);
    const w = node(n as Record<string, unknown> & { type: string }, depth, count, `${where} ("${(n as { type: string }).type.slice(0, 40)}")`);
    if (w) out.push(w);
  }
  return out;
}

/** One node, or undefined for a type this host does not know (skipped). */
function node(o: Record<string, unknown> & { type: string }, depth: number, count: { parts: number }, at: string): Widget | undefined {
  const f = new Fields(o, at);
  const label = f.str('label');
  const base = label ? { label } : {};
  switch (o.type) {
    case 'heading': {
      const level = f.num('level');
      return { type: 'heading', ...base, text: f.str('text'), ...(level && { level }) };
    }
    case 'text':
    case 'note':
      return { type: o.type, ...base, text: f.str('text'), ...tone(f) };
    case 'meter': {
      const unit = f.str('unit');
      return { type: 'meter', ...base, value: f.num('value'), max: f.num('max'), ...(unit && { unit }) };
    }
    case 'keyvalue':
      return {
        type: 'keyvalue', ...base, rows: f.list('rows', count, (rf) => {
          const note = rf.str('note');
          return { key: rf.str('key'), value: rf.str('value'), ...(note && { note }), ...(rf.bool('mono') && { mono: true }) };
        }),
      };
    case 'table':
      return { type: 'table', ...base, columns: f.strings('columns', count), cells: f.rowsOfStrings('cells', count) };
    case 'list':
      return {
        type: 'list', ...base, items: f.list('items', count, (rf) => {
          const note = rf.str('note');
          const action = rf.str('action_id');
          return { text: rf.str('text'), ...(note && { note }), ...tone(rf), ...(action && { action_id: action }) };
        }),
      };
    case 'group': {
      const children = f.present('children') ? f.array('children') : [];
      return { type: 'group', ...base, children: nodes(children, depth + 1, count, at) };
    }
    case 'action': {
      const action = f.str('action_id');
      return { type: 'action', ...base, text: f.str('text'), ...(action && { action_id: action }) };
    }
    case 'divider':
      return { type: 'divider', ...base };
    default:
      return undefined;
  }
}

function tone(f: Fields): { tone?: WidgetTone } {
  const t = f.str('tone');
  return t && t !== 'default' && (WIDGET_TONES as readonly string[]).includes(t) ? { tone: t as WidgetTone } : {};
}

function add(count: { parts: number }, n: number): void {
  count.parts += n;
  if (count.parts > MAX_WIDGET_PARTS) throw new WidgetProblem(`has more than ${MAX_WIDGET_PARTS} parts (nodes, rows, items, columns and cells)`);
}

/** The fields of one object, read as terva writes them: absent or null is the zero value. */
class Fields {
  constructor(private readonly o: Record<string, unknown>, private readonly at: string) {}

  present(name: string): boolean {
    return this.o[name] !== undefined && this.o[name] !== null;
  }

  str(name: string): string {
    const v = this.o[name];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') this.fail(name, 'a string', v);
    return v as string;
  }

  num(name: string): number {
    const v = this.o[name];
    if (v === undefined || v === null) return 0;
    // JSON can spell an infinity (1e999); nothing can draw one.
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(name, 'a finite number', v);
    return v as number;
  }

  bool(name: string): boolean {
    const v = this.o[name];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') this.fail(name, 'a boolean', v);
    return v as boolean;
  }

  array(name: string): unknown[] {
    const v = this.o[name];
    if (!Array.isArray(v)) this.fail(name, 'a list', v);
    return v as unknown[];
  }

  strings(name: string, count: { parts: number }): string[] {
    if (!this.present(name)) return [];
    const v = this.array(name);
    add(count, v.length);
    if (!v.every((x) => typeof x === 'string')) throw new WidgetProblem(`${this.at}: "${name}" must be a list of strings`);
    return v as string[];
  }

  rowsOfStrings(name: string, count: { parts: number }): string[][] {
    if (!this.present(name)) return [];
    const v = this.array(name);
    return v.map((row, i) => {
      if (row === null) return [];
      if (!Array.isArray(row) || !row.every((x) => typeof x === 'string')) throw new WidgetProblem(`${this.at}: "${name}" row ${i} must be a list of strings`);
      add(count, row.length);
      return row as string[];
    });
  }

  list<T>(name: string, count: { parts: number }, read: (f: Fields) => T): T[] {
    if (!this.present(name)) return [];
    const v = this.array(name);
    add(count, v.length);
    return v.map((x, i) => {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new WidgetProblem(`${this.at}: "${name}" entry ${i} must be an object, got ${kindOf(x)}`);
      return read(new Fields(x as Record<string, unknown>, `${this.at}: "${name}" entry ${i}`));
    });
  }

  private fail(name: string, want: string, got: unknown): never {
    throw new WidgetProblem(`${this.at}: "${name}" must be ${want}, got ${kindOf(got)}`);
  }
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`.slice(0, 60);
}
