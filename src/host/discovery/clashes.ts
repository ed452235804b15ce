/**
 * Name clashes between workspace folders: the first folder's extension is
 * loaded, the later one is not, and the diagnostic names both folders so
 * the user can tell which copy runs.
 */
import type { FoundExtension } from './discover.js';

/** A sentence for each project extension shadowed by another folder's, keyed by the one not loaded. */
export function folderClashes(found: readonly FoundExtension[]): Map<FoundExtension, string> {
  const byDir = new Map(found.map((f) => [f.dir, f]));
  const notes = new Map<FoundExtension, string>();
  for (const f of found) {
    const winner = f.shadowedBy === undefined ? undefined : byDir.get(f.shadowedBy);
    if (f.source !== 'project' || winner?.source !== 'project' || winner.projectDir === f.projectDir) continue;
    notes.set(f, `workspace folders ${winner.projectDir} and ${f.projectDir} both have a zot extension named "${f.name}": the one in ${winner.projectDir} comes first in the folder order and is the one loaded; this one (${f.dir}) is not`);
  }
  return notes;
}
