/**
 * One extension's state as a discriminated union: each state carries what
 * exists in it (the launch while a process runs, the restart timer while
 * one waits), so nothing is true of a state that its fields do not say.
 * Views switch on `kind` (and `readiness`, `reason`), never on message text.
 */
import type { FoundExtension } from '../discovery/discover.js';

/** Why an extension that could run is not started. */
export type HoldReason = 'untrusted' | 'consent' | 'changed' | 'denied';

/**
 * After hello: still registering (no `ready` yet, not quiet yet), `ready`
 * (it said so), `auto_ready` (went quiet without saying so), or
 * `timed_out` (still registering when the host's ready grace ended).
 */
export type Readiness = 'registering' | 'ready' | 'auto_ready' | 'timed_out';

export type ExtensionStatus<L = unknown, T = unknown> =
  | { kind: 'stopped' }
  /** About to launch: the host's gate (trust, consent) is asked whether this code may run. Nothing is spawned yet. */
  | { kind: 'checking' }
  /** Spawned; hello not yet received. `bootstrap`: its launcher's last progress line, while it builds (docs/TERVA.md 15.4). */
  | { kind: 'starting'; launch: L; bootstrap?: string }
  /** Said hello: its connection serves calls. */
  | { kind: 'running'; launch: L; readiness: Readiness }
  /** Its connection is gone (it closed its output, or its input broke): the process is being ended, then the restart policy decides. */
  | { kind: 'lost'; launch: L; reason: string }
  /** Asked to stop; the stop ladder is running. */
  | { kind: 'stopping'; launch: L }
  | { kind: 'restarting'; attempt: number; max: number; delayMs: number; message: string; timer: T }
  | { kind: 'failed'; message: string }
  | { kind: 'held'; reason: HoldReason; message: string }
  | { kind: 'disabled'; why: string };

export type StatusKind = ExtensionStatus['kind'];

/** A state without what lives in it (its launch, its restart timer): what front ends get. */
export type StatusView = ExtensionStatus extends infer S ? (S extends unknown ? Omit<S, 'launch' | 'timer'> : never) : never;

/** A found extension's state before anything started it: failed (a bad manifest), disabled, or stopped. */
export function initialStatus(found: FoundExtension): ExtensionStatus<never, never> {
  if (found.error) return { kind: 'failed', message: found.error };
  if (found.shadowedBy) return { kind: 'disabled', why: `not loaded: ${found.shadowedBy} has the same ${found.manifest ? 'name' : 'folder name'} and comes first` };
  if (found.manifest && !found.manifest.enabled) return { kind: 'disabled', why: 'disabled in its extension.json ("enabled": false)' };
  return { kind: 'stopped' };
}

/** Whether it can be started at all: a usable, enabled, unshadowed manifest with something to run. */
export function isStartable(found: FoundExtension): boolean {
  return !found.error && !found.shadowedBy && !!found.manifest?.enabled && !found.assetsOnly;
}

/** The view of a state: the same fields, less the launch and the timer. */
export function viewOf(s: ExtensionStatus): StatusView {
  if ('launch' in s) {
    const { launch: _launch, ...rest } = s;
    return rest as StatusView;
  }
  if (s.kind === 'restarting') {
    const { timer: _timer, ...rest } = s;
    return rest;
  }
  return s;
}

/** The flat name reports and `doctor --json` show (zot's own words for the running states). */
export type ExtensionState =
  | 'stopped' | 'starting' | 'ready' | 'auto_ready' | 'ready_timed_out' | 'stopping' | 'restarting' | 'failed' | 'held' | 'disabled';

export function stateName(s: StatusView): ExtensionState {
  if (s.kind === 'checking') return 'starting';
  if (s.kind === 'lost') return 'stopping';
  if (s.kind !== 'running') return s.kind;
  switch (s.readiness) {
    case 'registering': return 'starting';
    case 'timed_out': return 'ready_timed_out';
    default: return s.readiness;
  }
}

/** The flat name of a view's state (reports, log lines): derived from its `status`, never kept beside it. */
export function stateOf(view: { readonly status: StatusView }): ExtensionState;
export function stateOf(view: { readonly status: StatusView } | undefined): ExtensionState | undefined;
export function stateOf(view: { readonly status: StatusView } | undefined): ExtensionState | undefined {
  return view && stateName(view.status);
}

/** A flat state in words: `auto_ready` is "auto ready", `ready_timed_out` "ready timed out". */
export function stateLabel(state: ExtensionState): string {
  return state.replace(/_/g, ' ');
}

/** Why it is not running, in a sentence; undefined where nothing went wrong. */
export function statusMessage(s: StatusView): string | undefined {
  switch (s.kind) {
    case 'failed':
    case 'held':
    case 'restarting':
      return s.message;
    case 'lost':
      return `connection lost (${s.reason}); ending the process`;
    case 'disabled':
      return s.why;
    default:
      return undefined;
  }
}

/** Serves calls: said hello, its connection is open, and it is not being stopped. */
export const isServing = (s: StatusView): boolean => s.kind === 'running';

/** Up and done registering: running past its registering phase (ready, auto-ready, or ready after the grace ran out). */
export const isReady = (s: StatusView): boolean => s.kind === 'running' && s.readiness !== 'registering';

/** The launch of a state that has one: a process of it exists (it may be on its way out). */
export function launchOf<L>(s: ExtensionStatus<L>): L | undefined {
  return s.kind === 'starting' || s.kind === 'running' || s.kind === 'stopping' || s.kind === 'lost' ? s.launch : undefined;
}

/** Start (or Allow) can launch it from here: nothing runs and nothing is on its way. */
export const canStart = (s: StatusView): boolean => s.kind === 'stopped' || s.kind === 'failed' || s.kind === 'held';

/** Stop has something to stop: a process, a gate being asked, or a restart waiting. */
export const canStop = (s: StatusView): boolean => s.kind === 'checking' || s.kind === 'starting' || s.kind === 'running' || s.kind === 'lost' || s.kind === 'restarting';

/** Still on its way: the host's ready wait is not over for it. */
export const isSettling = (s: StatusView): boolean =>
  s.kind === 'checking' || s.kind === 'starting' || s.kind === 'restarting' || (s.kind === 'running' && s.readiness === 'registering');

/**
 * On its way from one state to another, up or down: wait before deciding what it is. Settling, or its
 * connection lost, or being stopped: exactly the flat names `starting` (checking, starting, running while
 * registering), `stopping` (stopping, lost) and `restarting` of `stateName`.
 */
export const isInTransition = (s: StatusView): boolean => isSettling(s) || s.kind === 'lost' || s.kind === 'stopping';

/**
 * On its way to serving, as an agent hook waits for it: its start being
 * checked, before hello, registering (or past the ready grace and still
 * registering), restarting after a crash, or its lost connection ending.
 * Unlike `isSettling`, a stop is not on its way anywhere a hook waits for.
 */
export const isOnItsWay = (s: StatusView): boolean =>
  s.kind === 'running' ? s.readiness === 'registering' || s.readiness === 'timed_out' : s.kind === 'checking' || s.kind === 'starting' || s.kind === 'restarting' || s.kind === 'lost';

/**
 * The current state and those waiting for a state: `set` is the one place a
 * state changes; it wakes every waiter whose condition now holds and returns
 * the state it replaced.
 */
export class StateCell<S> {
  private waiters: { until: (s: S) => boolean; resolve: () => void }[] = [];

  constructor(public value: S) {}

  set(next: S): S {
    const old = this.value;
    this.value = next;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) {
      if (w.until(next)) w.resolve();
      else this.waiters.push(w);
    }
    return old;
  }

  /** Resolves once the state satisfies `done` (at once when it does now). */
  until(done: (s: S) => boolean): Promise<void> {
    if (done(this.value)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ until: done, resolve }));
  }
}
