/**
 * Discovery with the gate's answers, in which held code claims no name: when
 * an extension the gate holds (untrusted, not allowed) would shadow another,
 * discovery runs again with it yielding, so workspace code that may not run
 * cannot switch off a user's extension by reusing its folder or manifest name.
 */
import * as path from 'node:path';
import { discoverExtensions, type DiscoveryOptions, type FoundExtension } from '../discovery/discover.js';
import { askGate, type GateDecision } from '../extension/gate.js';
import type { HostOptions } from '../options.js';

export interface Gated {
  found: FoundExtension[];
  /** The gate's answer for each loadable extension, by resolved folder. */
  decisions: Map<string, GateDecision>;
}

export async function discoverGated(opts: Omit<DiscoveryOptions, 'yielding'>, gate: HostOptions['gate']): Promise<Gated> {
  const decisions = new Map<string, GateDecision>();
  const decide = async (found: readonly FoundExtension[]): Promise<void> => {
    for (const f of found) {
      const key = path.resolve(f.dir);
      if (decisions.has(key) || f.error || f.shadowedBy || !f.manifest?.enabled || f.assetsOnly) continue;
      decisions.set(key, gate ? await askGate(gate, f) : { start: true });
    }
  };
  let found = discoverExtensions(opts);
  await decide(found);
  const held = new Set([...decisions].filter(([, d]) => !d.start).map(([dir]) => dir));
  if (found.some((f) => f.shadowedBy !== undefined && held.has(path.resolve(f.shadowedBy)))) {
    found = discoverExtensions({ ...opts, yielding: held });
    await decide(found);
  }
  return { found, decisions };
}

