/**
 * zot's `call_tool`: an extension asks the host to run a tool, any running
 * extension's (its own included), through the host's one door (docs/ZOT.md
 * 2.2): the `tool_call` event and intercepts with `origin_extension`, the
 * decision, the call, the `tool_result` event; no transcript. Every request
 * with an id is answered exactly once, as a `tool_result` the other way:
 * a refusal in zot's order and words, the callee's bounded content, or why
 * it failed. Requests of one extension are cancelled by its
 * `call_tool_cancel`, by the end of the tool call they were made for, and
 * when its connection goes.
 */
import { CancellationTokenSource, type Disposable } from 'vscode-jsonrpc/node';
import { boundResult, type CallToolFromExt, type ContentBlock, type JsonObject, type ToolResultFromHost } from '../../protocol/index.js';
import { nextId } from '../connection/ids.js';
import type { ToolCall } from '../extension/calls.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import { toolEnding, type ToolOutcome } from '../results/outcomes.js';
import type { ToolCallOptions } from './agentPath.js';

/** zot's bound on one `call_tool`, from its arrival to its answer. */
export const CALL_TOOL_TIMEOUT_MS = 60_000;
/** At most this many tools in one chain, the model's own call included (zot: 4). */
export const MAX_CALL_CHAIN = 4;
/** Requests one extension may have in flight at once; zot sets none, this host keeps a runaway loop from piling up. */
const MAX_CALLS_IN_FLIGHT = 64;

/** zot's words for each refusal, in the order it checks them. */
export const CALL_TOOL_REFUSALS = {
  notOptedIn: 'extension did not opt in to call_tool',
  unknownParent: 'unknown or expired parent tool call',
  parentRequired: 'parent_id is required while an extension tool is active',
  cycle: 'tool call cycle detected',
  depth: 'tool call depth limit reached',
  malformed: 'call_tool requires a name and JSON object args',
} as const;

/** The door, as a `call_tool` uses it. */
export interface ToolDoor {
  runToolCall(name: string, args: unknown, opts: ToolCallOptions): Promise<ToolOutcome>;
  /** Whether a running extension offers a tool of that name. */
  knows(name: string): boolean;
}

interface Request { source: CancellationTokenSource; canceledByCaller: boolean; subs: Disposable[] }

export class ExtensionCalls {
  /** Each extension's requests in flight, by the id it chose. */
  private readonly live = new Map<ExtensionRuntime, Map<string, Request>>();

  constructor(private readonly door: ToolDoor) {}

  /** A `call_tool` frame from `rt`; answered on `rt`'s connection, never thrown. */
  call(rt: ExtensionRuntime, frame: CallToolFromExt): void {
    const id = frame.id;
    if (!id) return rt.addProblem('call_tool without an id was ignored: nothing could be answered');
    const mine = this.requestsOf(rt);
    if (mine.has(id)) return rt.addProblem(`call_tool "${id}" reuses the id of a request still in flight; ignored`);
    const name = typeof frame.name === 'string' ? frame.name : '';
    const parent = frame.parent_id === undefined ? undefined : rt.toolCall(frame.parent_id);
    const refused = refusal(rt, frame, parent, mine.size);
    if (refused) return answer(rt, id, name, [{ type: 'text', text: refused }], true);
    const chain = parent?.spec.chain ?? [];
    const source = new CancellationTokenSource();
    const request: Request = { source, canceledByCaller: false, subs: [] };
    mine.set(id, request);
    if (parent) {
      // The nested call lives within the call it was made for: it ends with it.
      if (parent.spec.token) request.subs.push(parent.spec.token.onCancellationRequested(() => source.cancel()));
      void parent.result.then(() => source.cancel());
    }
    void this.door.runToolCall(name, frame.args, {
      token: source.token, timeoutMs: CALL_TOOL_TIMEOUT_MS, origin: rt.name, chain: [...chain, name], toolId: `ext-call-${nextId()}`,
      ...(parent?.spec.panelUi && { panelUi: parent.spec.panelUi }),
    }).then((o) => {
      mine.delete(id);
      for (const s of request.subs) s.dispose();
      source.dispose();
      const [content, isError] = this.answerOf(name, o, request.canceledByCaller);
      answer(rt, id, name, content, isError);
    });
  }

  /** A `call_tool_cancel`: that request's call is cancelled (its callee told, as for a model's call); an unknown id is ignored. */
  cancel(rt: ExtensionRuntime, id: string): void {
    const r = this.live.get(rt)?.get(id);
    if (!r) return;
    r.canceledByCaller = true;
    r.source.cancel();
  }

  /** A `call_tool` that failed validation but named its id: answered with zot's words rather than left waiting. */
  malformed(rt: ExtensionRuntime, id: string): void {
    if (this.live.get(rt)?.has(id)) return;
    answer(rt, id, '', [{ type: 'text', text: rt.capabilities.includes('call_tool') ? CALL_TOOL_REFUSALS.malformed : CALL_TOOL_REFUSALS.notOptedIn }], true);
  }

  /** `rt`'s connection is gone: all its requests are cancelled. */
  closed(rt: ExtensionRuntime): void {
    const mine = this.live.get(rt);
    if (!mine) return;
    this.live.delete(rt);
    for (const r of mine.values()) r.source.cancel();
  }

  private requestsOf(rt: ExtensionRuntime): Map<string, Request> {
    let mine = this.live.get(rt);
    if (!mine) this.live.set(rt, (mine = new Map()));
    return mine;
  }

  /** The callee's outcome as zot answers it: its content, or why it did not finish, in zot's words. */
  private answerOf(name: string, o: ToolOutcome, canceledByCaller: boolean): [ContentBlock[], boolean] {
    if (o.outcome === 'completed') return [o.content, o.isError];
    const text = (t: string): [ContentBlock[], boolean] => [[{ type: 'text', text: t }], true];
    const { status, executed } = toolEnding(o);
    if (canceledByCaller && status === 'cancelled') return text('aborted: context canceled');
    if (status === 'blocked') return [o.content, true];
    if (o.outcome === 'not_run' && !executed && status === 'failed' && !this.door.knows(name)) return text(`unknown tool ${JSON.stringify(name)}`);
    if (o.outcome !== 'not_run' && o.extension) return text(`extension ${o.extension}/${name} failed: ${o.message}`);
    return o.content.length ? [o.content, true] : text(o.message);
  }
}

/** Why zot refuses this request, checked in zot's order; undefined when it may run. */
function refusal(rt: ExtensionRuntime, frame: CallToolFromExt, parent: ToolCall | undefined, inFlight: number): string | undefined {
  if (!rt.capabilities.includes('call_tool')) return CALL_TOOL_REFUSALS.notOptedIn;
  if (frame.parent_id !== undefined && !parent) return CALL_TOOL_REFUSALS.unknownParent;
  if (frame.parent_id === undefined && !rt.toolCalls().next().done) return CALL_TOOL_REFUSALS.parentRequired;
  const chain = parent?.spec.chain ?? [];
  if (typeof frame.name === 'string' && chain.includes(frame.name)) return CALL_TOOL_REFUSALS.cycle;
  if (chain.length >= MAX_CALL_CHAIN) return CALL_TOOL_REFUSALS.depth;
  if (typeof frame.name !== 'string' || !frame.name || !isObject(frame.args)) return CALL_TOOL_REFUSALS.malformed;
  if (inFlight >= MAX_CALLS_IN_FLIGHT) return `too many call_tool requests in flight (at most ${MAX_CALLS_IN_FLIGHT})`;
  return undefined;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The answer, bounded as zot bounds it (256 KiB, 128 blocks, `truncated`). */
function answer(rt: ExtensionRuntime, id: string, name: string, blocks: readonly ContentBlock[], isError: boolean): void {
  const { content, truncated } = boundResult(blocks);
  const frame: ToolResultFromHost = { type: 'tool_result', id, name, content, ...(isError && { is_error: true }), ...(truncated && { truncated: true }) };
  rt.send(frame);
}
