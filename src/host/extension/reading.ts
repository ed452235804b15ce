/**
 * What the frames of one launch do to its extension: the handshake (the
 * hello bound, a launcher's `bootstrap` lines, hello and hello_ack, the
 * quiet spell that counts as ready) and, after it, each frame routed to the
 * request table, the registrations, terva's side of the wire or the UI
 * queue. The runtime (runtime.ts) owns the state; this reads the wire for it
 * through RuntimeCore and changes the state only through `transition`.
 */
import { HOST_CAPABILITIES, isRequestType, notSupported, preview, PROTOCOL_VERSION, ZOT_PROTOCOL_RELEASE, type FrameFromExt } from '../../protocol/index.js';
import { isReplyType, type ReplyFrame } from '../connection/requests.js';
import type { FoundExtension } from '../discovery/discover.js';
import { formatMs } from '../results/outcomes.js';
import type { TervaLink } from '../terva/link.js';
import type { Launch } from './launch.js';
import type { LogLevel } from '../port.js';
import type { RegistrationFrame, Registrations } from './registrations.js';
import type { RuntimeConfig } from './contract.js';
import { isServing, type ExtensionStatus } from './state.js';
import type { UiQueue } from './uiQueue.js';

export type Status = ExtensionStatus<Launch, NodeJS.Timeout>;

/** A `bootstrap` line is shown cut to this many characters, on one line. */
const MAX_BOOTSTRAP_CHARS = 200;

/** What reading a launch's frames may see and do of its extension's runtime. */
export interface RuntimeCore {
  readonly name: string;
  readonly found: FoundExtension;
  readonly logPath: string;
  readonly config: RuntimeConfig;
  readonly registrations: Registrations;
  readonly terva: TervaLink;
  readonly ui: UiQueue;
  readonly current: Status;
  /** The launch of the current state, if it has one. */
  readonly live: Launch | undefined;
  transition(next: Status): void;
  /** Loading of a running process failed: it is stopped and not restarted. */
  failLaunch(l: Launch, message: string): void;
  addProblem(message: string): void;
  log(line: string, level: LogLevel): void;
  registrationsChanged(): void;
  /** A reply that matched nothing pending (late, cancelled or unknown). */
  lateReply(): void;
  /** What its hello said: capabilities, version. */
  helloSaid(caps: readonly string[], version: string | undefined): void;
  /** Its launcher's last `bootstrap` line. */
  bootstrapped(text: string): void;
  callTool(frame: CallToolFrame): void;
}

/** zot's `call_tool`, `call_tool_cancel`, and a `call_tool` that failed validation (by its id). */
export type CallToolFrame = Extract<FrameFromExt, { type: 'call_tool' | 'call_tool_cancel' }> | { type: 'malformed'; id: string };

/**
 * The hello bound: quiet time, which each `bootstrap` line starts again,
 * under a ceiling counted from the spawn (docs/TERVA.md 15.4).
 */
export function armHello(rt: RuntimeCore, l: Launch): void {
  const quiet = rt.config.helloTimeoutMs;
  const left = l.spawnedAt + rt.config.bootstrapLimitMs - Date.now();
  l.helloTimer.arm(Math.max(0, Math.min(quiet, left)), () => {
    if (rt.live !== l || l.gotHello) return;
    if (left <= quiet) return stillBootstrapping(rt, l);
    const since = l.bootstrap === undefined ? '' : ` of its last bootstrap line ("${l.bootstrap}")`;
    rt.failLaunch(l, `did not say hello within ${formatMs(quiet)}${since}; see its log at ${rt.logPath}`);
  });
}

/** A launcher's progress line before hello: shown, logged, and the hello bound starts again, unless the ceiling passed. */
function onBootstrap(rt: RuntimeCore, l: Launch, message: string | undefined): void {
  // One line of progress, however long the launcher's text.
  const text = message ? preview(message, MAX_BOOTSTRAP_CHARS) : 'starting';
  if (Date.now() - l.spawnedAt >= rt.config.bootstrapLimitMs) return stillBootstrapping(rt, l);
  l.bootstrap = text;
  rt.bootstrapped(text);
  rt.log(`bootstrap: ${text}`, 'info');
  rt.transition({ kind: 'starting', launch: l, bootstrap: text });
  armHello(rt, l);
}

function stillBootstrapping(rt: RuntimeCore, l: Launch): void {
  const last = l.bootstrap === undefined ? '' : ` (last: "${l.bootstrap}")`;
  rt.failLaunch(l, `still bootstrapping after ${formatMs(rt.config.bootstrapLimitMs)}${last}; see its log at ${rt.logPath}`);
}

/** One frame the launch read, in order. */
export function onFrame(rt: RuntimeCore, l: Launch, frame: FrameFromExt): void {
  if (rt.live !== l || l.rejected) return;
  if (!l.gotHello) {
    if (rt.current.kind === 'stopping') return; // a hello after a stop must not revive it (nor restart it)
    if (frame.type === 'bootstrap') return onBootstrap(rt, l, frame.message);
    if (frame.type !== 'hello') return rt.failLaunch(l, `its first frame was "${frame.type}", not "hello"`);
    return onHello(rt, l, frame);
  }
  if (l.autoReadyTimer.armed) armAutoReady(rt, l);
  switch (frame.type) {
    case 'tool_result':
    case 'command_response':
    case 'event_intercept_response':
      if (!l.requests.answer(frame.id, frame)) rt.lateReply();
      return;
    case 'error':
      if (frame.id === undefined || !l.requests.answer(frame.id, frame as ReplyFrame)) rt.addProblem(`the extension reported an error: ${frame.message ?? '(no message)'}`);
      return;
    case 'register_command':
    case 'register_tool':
    case 'subscribe':
      if (rt.registrations.apply(frame as RegistrationFrame, (m) => rt.addProblem(m), (m) => rt.log(m, 'info'))) rt.registrationsChanged();
      return;
    case 'ready': {
      l.autoReadyTimer.clear();
      const s = rt.current;
      if (s.kind === 'running' && s.readiness !== 'ready') rt.transition({ kind: 'running', launch: l, readiness: 'ready' });
      return;
    }
    // zot's: answered off the reading loop like terva's requests, never behind the UI queue.
    case 'call_tool':
    case 'call_tool_cancel':
      return rt.callTool(frame);
    case 'hello':
      return rt.addProblem('sent hello a second time; ignored');
    case 'shutdown_ack':
      return;
    // terva's requests: answered off the reading loop, never behind the UI queue, so nothing waits its SDK's 30 s.
    case 'host_tool_call':
    case 'list_sessions':
    case 'read_session':
    case 'secret_set':
    case 'secret_get':
    case 'secret_delete':
    case 'secret_list':
      return rt.terva.request({ requestsGone: l.requestsGone, live: () => rt.live === l && isServing(rt.current), send: (a) => l.transport.send(a) }, frame);
    case 'register_context':
    case 'refresh_context':
    case 'context_card':
    case 'context_card_clear':
    case 'status_segment':
    case 'set_withdrawn_tools':
    case 'register_connector':
    case 'chat':
    case 'chat_down':
      return rt.terva.notice(frame);
    case 'bootstrap':
      // As terva reports it: the line is valid only before hello.
      return rt.addProblem('unknown frame type "bootstrap" after hello (a launcher may send it only before hello); ignored');
    default:
      rt.ui.push(frame);
  }
}

function onHello(rt: RuntimeCore, l: Launch, hello: Extract<FrameFromExt, { type: 'hello' }>): void {
  l.gotHello = true;
  l.helloTimer.clear();
  const { config } = rt;
  // terva's RequireProtocol: refused at load, with no hello_ack, rather than left waiting on answers this host never gives.
  const needs = hello.min_protocol ?? 0;
  if (needs > PROTOCOL_VERSION) {
    return rt.failLaunch(l, `extension ${rt.name} requires protocol version ${needs} but this host speaks ${PROTOCOL_VERSION}; upgrade zot-extensions (this is ${config.hostVersion})`);
  }
  rt.helloSaid(hello.capabilities ?? [], hello.version);
  if (hello.name !== rt.name) rt.addProblem(`hello names it "${hello.name}"; its manifest name "${rt.name}" is used`);
  // As zot: the extension's folder is its data_dir too. As terva: the events it will see, and its settings when it declares any.
  const settings = rt.terva.helloSettings();
  l.transport.send({
    type: 'hello_ack', protocol_version: PROTOCOL_VERSION, zot_version: ZOT_PROTOCOL_RELEASE, host_version: config.hostVersion, ...config.model(),
    cwd: rt.found.projectDir ?? config.cwd, extension_dir: rt.found.dir, data_dir: rt.found.dir,
    supported_events: [...config.supportedEvents], ...(settings && { config: settings }), capabilities: [...HOST_CAPABILITIES],
  });
  rt.transition({ kind: 'running', launch: l, readiness: 'registering' });
  armAutoReady(rt, l);
}

/** A line the launch could not read as a frame (`about`: what could be made out of it). */
export function onBadFrame(rt: RuntimeCore, l: Launch, message: string, about?: { type?: string; id?: string }): void {
  if (rt.live !== l) return;
  // A malformed request still gets its answer: its sender waits on the id, not on the fields.
  if (about?.id !== undefined && isRequestType(about.type) && l.gotHello) l.transport.send(notSupported(about.type, about.id));
  if (about?.id && about.type === 'call_tool' && l.gotHello) rt.callTool({ type: 'malformed', id: about.id });
  // An intercept's own diagnostic says what became of the event: one is enough.
  if (about?.id !== undefined && isReplyType(about.type) && l.requests.malformed(about.id, message) && about.type === 'event_intercept_response') return;
  rt.addProblem(message);
}

/** After hello, a quiet spell without `ready` counts as ready (zot: 250 ms). */
function armAutoReady(rt: RuntimeCore, l: Launch): void {
  l.autoReadyTimer.clear();
  const waiting = (s: Status): boolean => s.kind === 'running' && s.launch === l && (s.readiness === 'registering' || s.readiness === 'timed_out');
  if (!waiting(rt.current)) return;
  l.autoReadyTimer.arm(rt.config.autoReadyMs, () => {
    if (waiting(rt.current)) rt.transition({ kind: 'running', launch: l, readiness: 'auto_ready' });
  });
}
