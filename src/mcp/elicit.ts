/**
 * An interactive zot tool in an MCP client that can elicit (the client
 * declared `elicitation`): a panel bound to the call becomes an elicitation
 * form, on the call's own request. A panel with a cursor line (zot's `›`
 * mark) is a choice among its lines; one without is free text. The answer
 * goes to the extension as the keys a user would press: the arrows to the
 * chosen line and `enter`, or the text as typed characters and `enter`. A
 * declined or cancelled form (or one the client cannot show) closes the
 * panel, which cancels the call, as Esc does. When the extension renders the
 * panel with another question (other lines or title, not only the cursor
 * moved by the keys sent), the client is asked again.
 */
import { ElicitResultSchema, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { CURSOR_MARK, cursorLine, type PanelHandle, type PanelUI } from '../host/index.js';

/** What the bridge gives for one call: a way to send the client a request related to it. */
export type SendRequest = (request: { method: 'elicitation/create'; params: ElicitRequestFormParams }) => Promise<unknown>;

export class ElicitingPanels implements PanelUI {
  readonly interactive = true;
  /** Panels with a form on the way, and whether the extension rendered them again since. */
  private readonly asking = new Map<string, { again: boolean }>();
  /** What each panel last asked, its cursor marks taken off: a render that only moves the cursor asks nothing new. */
  private readonly asked = new Map<string, string>();
  private readonly closed = new Set<string>();

  constructor(private readonly send: SendRequest) {}

  openPanel(panel: PanelHandle): void {
    this.closed.delete(panel.uid);
    this.ask(panel);
  }

  renderPanel(panel: PanelHandle): void {
    const pending = this.asking.get(panel.uid);
    if (pending) pending.again = true;
    else if (questionOf(panel) !== this.asked.get(panel.uid)) this.ask(panel);
  }

  closePanel(panel: PanelHandle): void {
    this.closed.add(panel.uid);
    this.asked.delete(panel.uid);
  }

  private ask(panel: PanelHandle): void {
    const state = { again: false };
    this.asked.set(panel.uid, questionOf(panel));
    this.asking.set(panel.uid, state);
    const form = formOf(panel);
    void this.send({ method: 'elicitation/create', params: { message: form.message, requestedSchema: form.schema } })
      .then((raw) => {
        if (!this.closed.has(panel.uid)) answer(panel, form, ElicitResultSchema.parse(raw));
      })
      .catch(() => {
        // A client that cannot show it, or went away: the question cannot be answered.
        if (!this.closed.has(panel.uid)) panel.dismiss();
      })
      .finally(() => {
        if (this.asking.get(panel.uid) !== state) return;
        this.asking.delete(panel.uid);
        if (state.again && !this.closed.has(panel.uid) && questionOf(panel) !== this.asked.get(panel.uid)) this.ask(panel);
      });
  }
}

/**
 * Gives the extension a form's answer (an elicitation result, checked here:
 * it comes from the client) as the keys that make it.
 */
export function answer(panel: PanelHandle, form: Form, result: unknown): void {
  const r = typeof result === 'object' && result !== null ? (result as { action?: unknown; content?: unknown }) : {};
  const content = typeof r.content === 'object' && r.content !== null ? (r.content as Record<string, unknown>) : {};
  const value = r.action === 'accept' ? content[form.field] : undefined;
  const keys = typeof value === 'string' ? form.keys(value) : [];
  // Declined, cancelled, or an answer that is none of the choices: closed, as Esc closes it.
  if (!keys.length) return panel.dismiss();
  for (const [key, text] of keys) panel.key(key, text);
}

/** A panel's question: its title and lines without the cursor mark. */
export function questionOf(panel: PanelHandle): string {
  return JSON.stringify([panel.title, panel.lines.map((l) => l.replace(CURSOR_MARK, '').trim())]);
}

type Keys = [key: 'up' | 'down' | 'enter' | 'rune', text?: string][];

export interface Form {
  message: string;
  schema: ElicitRequestFormParams['requestedSchema'];
  field: string;
  keys(value: string): Keys;
}

/** The form a panel stands for, and the keys each answer becomes. */
export function formOf(panel: PanelHandle): Form {
  const message = [panel.title, panel.footer && `(${panel.footer})`].filter(Boolean).join('\n') || `${panel.extension.name} asks`;
  const cursor = cursorLine(panel.lines);
  if (cursor < 0) {
    const field = 'text';
    const body = panel.lines.join('\n');
    return {
      message: body ? `${message}\n\n${body}` : message,
      schema: { type: 'object', properties: { [field]: { type: 'string', title: panel.title || 'Answer' } }, required: [field] },
      field,
      keys: (value) => [...[...value].map((ch): Keys[number] => ['rune', ch]), ['enter']],
    };
  }
  // Each line is a choice, its cursor mark taken off; a repeated text gets its place added, so every choice is told apart.
  const seen = new Map<string, number>();
  const choices = panel.lines.map((line) => {
    const text = line.replace(CURSOR_MARK, '').trim() || '(empty line)';
    const n = (seen.get(text) ?? 0) + 1;
    seen.set(text, n);
    return n === 1 ? text : `${text} (${n})`;
  });
  const field = 'choice';
  return {
    message,
    schema: { type: 'object', properties: { [field]: { type: 'string', title: panel.title || 'Choose', enum: choices } }, required: [field] },
    field,
    keys: (value) => {
      const target = choices.indexOf(value);
      if (target < 0) return [];
      const step: Keys[number] = target > cursor ? ['down'] : ['up'];
      return [...Array<Keys[number]>(Math.abs(target - cursor)).fill(step), ['enter']];
    },
  };
}
