// The predicates over an extension's status (src/host/extension/state.ts),
// the only ones front ends decide on, against every status kind (and every
// readiness of `running`), through the built host library: each row is a
// status, its flat name (stateName) and what each predicate says of it,
// the one an agent hook waits on (isOnItsWay) among them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lib } from '../helpers.mjs';

/** @typedef {import('../../out/types/host/index.js').StatusView} StatusView */
/** @typedef {import('../../out/types/host/index.js').StatusKind} StatusKind */
/** @typedef {import('../../out/types/host/index.js').ExtensionState} ExtensionState */

/** Every kind, so that a kind added to the union fails the type check of this file until it has rows here. */
/** @type {Record<StatusKind, true>} */
const KINDS = { stopped: true, checking: true, starting: true, running: true, lost: true, stopping: true, restarting: true, failed: true, held: true, disabled: true };

const PREDICATES = /** @type {const} */ (['isServing', 'isReady', 'canStart', 'canStop', 'isSettling', 'isInTransition', 'isOnItsWay']);

/**
 * @type {[StatusView, ExtensionState, Record<typeof PREDICATES[number], boolean>][]}
 */
const ROWS = [
  [{ kind: 'stopped' }, 'stopped', { isServing: false, isReady: false, canStart: true, canStop: false, isSettling: false, isInTransition: false , isOnItsWay: false }],
  [{ kind: 'checking' }, 'starting', { isServing: false, isReady: false, canStart: false, canStop: true, isSettling: true, isInTransition: true , isOnItsWay: true }],
  [{ kind: 'starting' }, 'starting', { isServing: false, isReady: false, canStart: false, canStop: true, isSettling: true, isInTransition: true , isOnItsWay: true }],
  [{ kind: 'starting', bootstrap: 'building…' }, 'starting', { isServing: false, isReady: false, canStart: false, canStop: true, isSettling: true, isInTransition: true , isOnItsWay: true }],
  [{ kind: 'running', readiness: 'registering' }, 'starting', { isServing: true, isReady: false, canStart: false, canStop: true, isSettling: true, isInTransition: true , isOnItsWay: true }],
  [{ kind: 'running', readiness: 'ready' }, 'ready', { isServing: true, isReady: true, canStart: false, canStop: true, isSettling: false, isInTransition: false , isOnItsWay: false }],
  [{ kind: 'running', readiness: 'auto_ready' }, 'auto_ready', { isServing: true, isReady: true, canStart: false, canStop: true, isSettling: false, isInTransition: false , isOnItsWay: false }],
  [{ kind: 'running', readiness: 'timed_out' }, 'ready_timed_out', { isServing: true, isReady: true, canStart: false, canStop: true, isSettling: false, isInTransition: false , isOnItsWay: true }],
  [{ kind: 'lost', reason: 'it closed its output' }, 'stopping', { isServing: false, isReady: false, canStart: false, canStop: true, isSettling: false, isInTransition: true , isOnItsWay: true }],
  [{ kind: 'stopping' }, 'stopping', { isServing: false, isReady: false, canStart: false, canStop: false, isSettling: false, isInTransition: true , isOnItsWay: false }],
  [{ kind: 'restarting', attempt: 1, max: 3, delayMs: 500, message: 'exited with code 1; restarting' }, 'restarting', { isServing: false, isReady: false, canStart: false, canStop: true, isSettling: true, isInTransition: true , isOnItsWay: true }],
  [{ kind: 'failed', message: 'exited with code 1' }, 'failed', { isServing: false, isReady: false, canStart: true, canStop: false, isSettling: false, isInTransition: false , isOnItsWay: false }],
  [{ kind: 'held', reason: 'consent', message: 'waiting for your permission' }, 'held', { isServing: false, isReady: false, canStart: true, canStop: false, isSettling: false, isInTransition: false , isOnItsWay: false }],
  [{ kind: 'disabled', why: 'disabled in its extension.json ("enabled": false)' }, 'disabled', { isServing: false, isReady: false, canStart: false, canStop: false, isSettling: false, isInTransition: false , isOnItsWay: false }],
];

/** @param {StatusView} s */
const label = (s) => (s.kind === 'running' ? `running (${s.readiness})` : s.kind === 'starting' && s.bootstrap ? 'starting (bootstrap)' : s.kind);

test('the table has every status kind and every readiness of running', () => {
  assert.deepEqual(new Set(ROWS.map(([s]) => s.kind)), new Set(Object.keys(KINDS)));
  assert.deepEqual(new Set(ROWS.flatMap(([s]) => (s.kind === 'running' ? [s.readiness] : []))), new Set(['registering', 'ready', 'auto_ready', 'timed_out']));
});

test('the host library exports every predicate', () => {
  for (const p of PREDICATES) assert.equal(typeof lib[p], 'function', p);
});

describe('every predicate against every status', () => {
  for (const [status, flat, expected] of ROWS) {
    test(label(status), () => {
      assert.equal(lib.stateName(status), flat, 'stateName');
      const got = Object.fromEntries(PREDICATES.map((p) => [p, lib[p](status)]));
      assert.deepEqual(got, expected);
    });
  }
});

test('a view\'s flat name is derived from its status (stateOf), and an agent hook waits on exactly what is settling, past the grace or losing its connection', () => {
  for (const [status] of ROWS) {
    assert.equal(lib.stateOf({ status }), lib.stateName(status), label(status));
    const pastGrace = status.kind === 'running' && status.readiness === 'timed_out';
    assert.equal(lib.isOnItsWay(status), lib.isSettling(status) || pastGrace || status.kind === 'lost', label(status));
  }
  assert.equal(lib.stateOf(undefined), undefined);
});

test('isInTransition is exactly the flat names starting, stopping and restarting', () => {
  for (const [status] of ROWS) {
    assert.equal(lib.isInTransition(status), ['starting', 'stopping', 'restarting'].includes(lib.stateName(status)), label(status));
  }
});

test('ready is serving past registering; settling is in transition on the way up', () => {
  for (const [status] of ROWS) {
    assert.equal(lib.isReady(status), lib.isServing(status) && !lib.isSettling(status), label(status));
    if (lib.isSettling(status)) assert.ok(lib.isInTransition(status), label(status));
    assert.ok(!(lib.canStart(status) && lib.canStop(status)), `${label(status)}: Start and Stop at once`);
  }
});
