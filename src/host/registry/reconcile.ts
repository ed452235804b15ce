/**
 * Project folders change without a reload: which runtimes still stand for
 * what discovery finds now (kept as they are, running or not), which are
 * new, and which are gone.
 */
import type { FoundExtension } from '../discovery/discover.js';
import type { ExtensionRuntime } from '../extension/runtime.js';

export interface Reconciled {
  /** Every runtime, in the new load order. */
  runtimes: ExtensionRuntime[];
  /** Made for this discovery: to be gated and started. */
  added: ExtensionRuntime[];
  /** No longer found, or found differently: to be stopped. */
  removed: ExtensionRuntime[];
}

/** The same extension found the same way: same folder, same root and project, same verdict on clashes and errors. */
function sameFind(a: FoundExtension, b: FoundExtension): boolean {
  return a.dir === b.dir && a.source === b.source && a.projectDir === b.projectDir
    && a.name === b.name && a.shadowedBy === b.shadowedBy && a.error === b.error;
}

export function reconcile(current: readonly ExtensionRuntime[], found: readonly FoundExtension[], make: (f: FoundExtension) => ExtensionRuntime): Reconciled {
  const unmatched = new Set(current);
  const added: ExtensionRuntime[] = [];
  const runtimes = found.map((f) => {
    const kept = [...unmatched].find((rt) => sameFind(rt.found, f));
    if (!kept) {
      const rt = make(f);
      added.push(rt);
      return rt;
    }
    unmatched.delete(kept);
    // Its place in load order moves with the folders before it.
    kept.found.rank = f.rank;
    return kept;
  });
  return { runtimes, added, removed: [...unmatched] };
}
