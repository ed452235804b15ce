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
 *
 * A free-text answer is at most MAX_ANSWER_CHARS characters (the form says
 * so as the field's `maxLength`); a longer one is not typed at all: the
 * client is asked again, the message naming the limit. The keys of an answer
 * go out KEY_BATCH at a time, a turn of the event loop apart, rather than
 * thousands of frames queued in one go.
 */
import { ElicitResultSchema, type ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { CURSOR_MARK, cursorLine, type PanelHandle, type PanelUI } from '../../host/index.js';

/**
 * The longest free-text answer, in characters (what JSON Schema's
 * `maxLength` counts). Each character is typed as a `panel_key` frame of its
 * own (about 60 bytes), so no limit in bytes of the protocol fits: 4 MiB of
 * request body would be millions of frames. 4,096 characters is a long
 * paragraph, more than anyone types into a panel's prompt, and at most
 * 4,097 frames (with `enter`), a few hundred kilobytes to the extension.
 */
export const MAX_ANSWER_CHARS = 4096;

/**
 * Keys sent together. A batch (about 15 KB) is one write of the transport,
 * well within what a pipe holds (64 KB on Linux); the turn of the event loop
 * before the next lets that write, and the extension's reading, go on. A
 * panel's `key` says nothing of the pipe, so this does not wait for it to
 * drain: an extension that stops reading is the transport's write timeout's
 * to end, and an answer is at most MAX_ANSWER_CHARS + 1 keys meanwhile.
 */
export const KEY_BATCH = 256;

/** What the bridge gives for one call: a way to send the client a request related to it. */
export type SendRequest = (request: { method: 'elicitation/create'; params: ElicitRequestFormParams }) => Promise<unknown>;

export class ElicitingPanels implements PanelUI {
  readonly interactive = true;
  /** Panels with a form on the way (or its answer being typed), whether the extension rendered them again since, and why their answer was refused. */
  private readonly asking = new Map<string, { again: boolean; refused?: string }>();
  /** What each panel last asked, its cursor marks taken off: a render that only moves the cursor asks nothing new. */
  private readonly asked = new Map<string, string>();
  private readonly closed = new Set<string>();

  /** `session`: the client's (its MCP session), so a panel opened without tool_call_id never binds across clients. */
  constructor(private readonly send: SendRequest, readonly session?: object) {}

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

  /** Sends the panel's question; `refused`: why its last answer was refused, said before it. */
  private ask(panel: PanelHandle, refused?: string): void {
    const state: { again: boolean; refused?: string } = { again: false };
    this.asked.set(panel.uid, questionOf(panel));
    this.asking.set(panel.uid, state);
    const form = formOf(panel, refused);
    const open = (): boolean => !this.closed.has(panel.uid);
    void this.send({ method: 'elicitation/create', params: { message: form.message, requestedSchema: form.schema } })
      .then(async (raw) => {
        if (open()) state.refused = await answer(panel, form, ElicitResultSchema.parse(raw), open);
      })
      .catch(() => {
        // A client that cannot show it, or went away: the question cannot be answered.
        if (open()) panel.dismiss();
      })
      .finally(() => {
        if (this.asking.get(panel.uid) !== state) return;
        this.asking.delete(panel.uid);
        if (!open()) return;
        if (state.refused !== undefined) this.ask(panel, state.refused);
        else if (state.again && questionOf(panel) !== this.asked.get(panel.uid)) this.ask(panel);
      });
  }
}

/**
 * Gives the extension a form's answer (an elicitation result, checked here:
 * it comes from the client) as the keys that make it, KEY_BATCH at a time;
 * the rest are not sent once `open` says the panel closed. Resolves when
 * every key is sent, or with why the answer is refused (nothing was sent:
 * the question is to be asked again, with that said).
 */
export async function answer(panel: PanelHandle, form: Form, result: unknown, open: () => boolean = () => true): Promise<string | undefined> {
  const r = typeof result === 'object' && result !== null ? (result as { action?: unknown; content?: unknown }) : {};
  const content = typeof r.content === 'object' && r.content !== null ? (r.content as Record<string, unknown>) : {};
  const value = r.action === 'accept' ? content[form.field] : undefined;
  const refused = typeof value === 'string' ? form.refuse(value) : undefined;
  if (refused !== undefined) return refused;
  const keys = typeof value === 'string' ? form.keys(value) : [];
  // Declined, cancelled, or an answer that is none of the choices: closed, as Esc closes it.
  if (!keys.length) {
    panel.dismiss();
    return undefined;
  }
  for (let at = 0; at < keys.length; at += KEY_BATCH) {
    if (at > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!open()) return undefined;
    }
    for (const [key, text] of keys.slice(at, at + KEY_BATCH)) panel.key(key, text);
  }
  return undefined;
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
  /** Why an answer is refused before any key is sent; undefined: it is not. */
  refuse(value: string): string | undefined;
  keys(value: string): Keys;
}

/** The form a panel stands for, and the keys each answer becomes; `refused`: why the last answer was refused, said first. */
export function formOf(panel: PanelHandle, refused?: string): Form {
  const title = [panel.title, panel.footer && `(${panel.footer})`].filter(Boolean).join('\n') || `${panel.extension.name} asks`;
  const message = refused === undefined ? title : `${refused}\n\n${title}`;
  const cursor = cursorLine(panel.lines);
  if (cursor < 0) {
    const field = 'text';
    const body = panel.lines.join('\n');
    return {
      message: body ? `${message}\n\n${body}` : message,
      schema: { type: 'object', properties: { [field]: { type: 'string', title: panel.title || 'Answer', maxLength: MAX_ANSWER_CHARS } }, required: [field] },
      field,
      refuse: (value) => {
        const n = characters(value);
        return n > MAX_ANSWER_CHARS ? `The answer was refused: it is ${n} characters long, and at most ${MAX_ANSWER_CHARS} are accepted. Answer again, within ${MAX_ANSWER_CHARS} characters.` : undefined;
      },
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
    refuse: () => undefined,
    keys: (value) => {
      const target = choices.indexOf(value);
      if (target < 0) return [];
      const step: Keys[number] = target > cursor ? ['down'] : ['up'];
      return [...Array<Keys[number]>(Math.abs(target - cursor)).fill(step), ['enter']];
    },
  };
}

/** Characters (code points) in `text`, counted without splitting it: an over-long answer may be megabytes. */
function characters(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
