/**
 * Loading and admission, one of the host's jobs: discover the extensions
 * (with the gate's answers, so held code claims no name), make their
 * runtimes, start the startable ones within the ready grace, follow the
 * project folders as they change, and stop them all. Each launch asks the
 * gate itself (extension/runtime.ts).
 */
import * as path from 'node:path';
import { folderClashes } from '../discovery/clashes.js';
import { discoverExtensions, type DiscoveryOptions, type FoundExtension } from '../discovery/discover.js';
import { reconcile } from './reconcile.js';
import { ExtensionRuntime } from '../extension/runtime.js';
import type { RuntimeConfig, RuntimeDelegate } from '../extension/contract.js';
import { discoverGated } from './gatedDiscovery.js';
import type { GateDecision } from '../extension/gate.js';
import type { HostOptions } from '../options.js';
import type { Registry } from './registry.js';

export interface LoadingDeps {
  registry: Registry;
  discovery(): DiscoveryOptions;
  gate: HostOptions['gate'];
  config(): RuntimeConfig;
  delegate: RuntimeDelegate;
  /** A new runtime is there (views list it before it starts). */
  announce(rt: ExtensionRuntime): void;
  readyGraceMs(): number;
}

/** Discovers and starts every extension, in place of those there were. */
export async function load(d: LoadingDeps): Promise<void> {
  const { found, decisions } = await discoverGated(d.discovery(), d.gate);
  d.registry.replace(found.map(factory(d, found)));
  await admit(d, d.registry.all, decisions);
}

/** The project folders changed: a removed folder's extensions stop, an added one's are found and admitted, the rest keep running. */
export async function followFolders(d: LoadingDeps): Promise<void> {
  const found = discoverExtensions(d.discovery());
  const next = reconcile(d.registry.all, found, factory(d, found));
  // Gone before anything new starts, so a moved name never has two processes.
  await Promise.all(next.removed.map((rt) => rt.stop()));
  d.registry.update(next.runtimes);
  await admit(d, next.added);
}

/** Starts these, waiting for each to be ready for at most the grace; one still registering then stops holding loading back. */
export async function startWithGrace(rts: readonly ExtensionRuntime[], graceMs: number): Promise<void> {
  if (rts.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
  await Promise.race([Promise.all(rts.map((rt) => rt.start())), grace]);
  clearTimeout(timer);
  for (const rt of rts) rt.markReadyTimedOut();
}

/** Makes runtimes for one discovery; a clash between folders is said on the one not loaded. */
function factory(d: LoadingDeps, found: readonly FoundExtension[]): (f: FoundExtension) => ExtensionRuntime {
  const config = d.config();
  const clashes = folderClashes(found);
  return (f) => {
    const rt = new ExtensionRuntime(f, config, d.delegate);
    const clash = clashes.get(f);
    if (clash) rt.addProblem(clash);
    return rt;
  };
}

/**
 * Announces new runtimes and starts the startable ones. One the gate held
 * during this discovery (to settle a name clash) is held at once rather
 * than asked twice.
 */
async function admit(d: LoadingDeps, rts: readonly ExtensionRuntime[], decisions?: ReadonlyMap<string, GateDecision>): Promise<void> {
  for (const rt of rts) d.announce(rt);
  const toStart: ExtensionRuntime[] = [];
  for (const rt of rts) {
    if (!rt.startable) continue;
    const decision = decisions?.get(path.resolve(rt.dir));
    if (decision && !decision.start) rt.hold(decision.hold ?? 'consent', decision.reason);
    else toStart.push(rt);
  }
  await startWithGrace(toStart, d.readyGraceMs());
}
