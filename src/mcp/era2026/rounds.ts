/**
 * An interactive zot tool for a client on MCP's 2026-07-28 revision, which
 * has no server-to-client requests: a question is the answer to the call
 * itself, an `input_required` result carrying the elicitation form and an
 * opaque `requestState`; the client asks the user and calls again with the
 * answer and the state. The zot call lives on between those requests here,
 * found again by its state (a random 128-bit name, unguessable, and checked
 * against the tool it was issued for).
 *
 * The form is the one a 2025 client gets (elicit.ts: a choice among a panel's
 * lines, or free text), and the answer becomes the same keys, sent the same
 * way (a refused answer is the same question again, saying why). A call whose
 * client does not come back within `waitMs` is cancelled, as closing its
 * panel would; so is the oldest waiting one when `max` are waiting.
 */
import { randomBytes } from 'node:crypto';
import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc/node';
import type { PanelHandle, PanelUI, ToolOutcome } from '../../host/index.js';
import { answer, formOf, questionOf, type Form } from '../shared/elicit.js';

export interface Question {
  panel: PanelHandle;
  form: Form;
}

/** The panels of one call, as the questions they ask, in order, each asked once until it changes. */
class QuestionPanels implements PanelUI {
  readonly interactive = true;
  /** What each open panel last asked (every open panel asks when it opens). */
  private readonly asked = new Map<string, string>();
  /** Panels whose answer is being typed: what they render meanwhile is asked once it is through, if it still stands. */
  private readonly typing = new Set<string>();
  private queue: Question[] = [];
  private waiter: ((q: Question) => void) | undefined;

  openPanel(panel: PanelHandle): void {
    this.offer(panel);
  }

  renderPanel(panel: PanelHandle): void {
    // Keys that only move the cursor ask nothing new; a render halfway through an answer asks nothing yet.
    if (!this.typing.has(panel.uid) && questionOf(panel) !== this.asked.get(panel.uid)) this.offer(panel);
  }

  closePanel(panel: PanelHandle): void {
    this.asked.delete(panel.uid);
    this.queue = this.queue.filter((q) => q.panel.uid !== panel.uid);
  }

  /** The next question, as soon as a panel asks one. */
  next(): Promise<Question> {
    const q = this.queue.shift();
    return q ? Promise.resolve(q) : new Promise((resolve) => (this.waiter = resolve));
  }

  /** The client's answer to `q`, given to its panel if still open; resolves once its keys are sent (or it is asked again). */
  async answer(q: Question, result: unknown): Promise<void> {
    const { panel } = q;
    const open = (): boolean => this.asked.has(panel.uid);
    if (!open()) return;
    this.typing.add(panel.uid);
    let refused: string | undefined;
    try {
      refused = await answer(panel, q.form, result, open);
    } catch {
      if (open()) panel.dismiss();
    } finally {
      this.typing.delete(panel.uid);
    }
    if (!open()) return;
    if (refused !== undefined) this.offer(panel, refused);
    else if (questionOf(panel) !== this.asked.get(panel.uid)) this.offer(panel);
  }

  private offer(panel: PanelHandle, refused?: string): void {
    this.asked.set(panel.uid, questionOf(panel));
    this.queue = this.queue.filter((q) => q.panel.uid !== panel.uid);
    const q = { panel, form: formOf(panel, refused) };
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(q);
    else this.queue.push(q);
  }
}

interface Waiting {
  readonly state: string;
  /** Which tool of which server it was issued for: a state is good for that call only. */
  readonly key: string;
  readonly panels: QuestionPanels;
  readonly outcome: Promise<ToolOutcome>;
  readonly cancel: CancellationTokenSource;
  asking: Question | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** What a round ends with: the call's outcome, or a question for the client with the state to come back with. */
export type Round = { outcome: ToolOutcome } | { question: Question; state: string };

export class InteractiveCalls {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    readonly waitMs: number,
    readonly max: number,
  ) {}

  /** Starts a call whose panels are questions; then run `round` on it. */
  start(key: string, run: (panels: PanelUI, token: CancellationToken) => Promise<ToolOutcome>): Waiting {
    const panels = new QuestionPanels();
    const cancel = new CancellationTokenSource();
    return { state: randomBytes(16).toString('base64url'), key, panels, cancel, outcome: run(panels, cancel.token), asking: undefined, timer: undefined };
  }

  /** The call waiting on `state` for the tool `key`, with the client's answers applied; undefined: none (expired, answered, or never issued). */
  resume(state: string, key: string, responses: Record<string, unknown> | undefined, field: string): Waiting | undefined {
    const call = this.waiting.get(state);
    if (!call || call.key !== key) return undefined;
    this.waiting.delete(state);
    clearTimeout(call.timer);
    const asked = call.asking;
    call.asking = undefined;
    // No answer for the question: the client could not ask it, which closes it as Esc would.
    if (asked) void call.panels.answer(asked, responses?.[field]);
    return call;
  }

  /** Waits for the call's outcome or its next question; the request's abort cancels the call. */
  async round(call: Waiting, signal: AbortSignal): Promise<Round> {
    const onAbort = (): void => call.cancel.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    try {
      const next = await Promise.race([call.outcome.then((outcome) => ({ outcome })), call.panels.next().then((question) => ({ question }))]);
      if ('outcome' in next) {
        call.cancel.dispose();
        return next;
      }
      call.asking = next.question;
      this.park(call);
      return { question: next.question, state: call.state };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Cancels every waiting call. */
  dispose(): void {
    for (const call of [...this.waiting.values()]) this.drop(call);
  }

  private park(call: Waiting): void {
    if (this.waiting.size >= this.max) {
      const oldest = this.waiting.values().next().value;
      if (oldest) this.drop(oldest);
    }
    this.waiting.set(call.state, call);
    call.timer = setTimeout(() => this.drop(call), this.waitMs);
    call.timer.unref();
  }

  private drop(call: Waiting): void {
    this.waiting.delete(call.state);
    clearTimeout(call.timer);
    call.cancel.cancel();
    const dispose = (): void => call.cancel.dispose();
    call.outcome.then(dispose, dispose);
  }
}
