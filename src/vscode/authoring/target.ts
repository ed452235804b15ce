/** Which extension an authoring command's argument names, the way the lifecycle commands read it. */
import type { ExtensionView, HostReader } from '../../host/index.js';
import { isNode } from '../commands/kit.js';

/**
 * `named`: the argument names an extension (a name, or a Zot view item); `rt`
 * is it, if the host has it. A view item is matched by folder first, so a
 * shadowed namesake is not taken for the active one.
 */
export function extensionOf(a: unknown, host: HostReader): { named: false } | { named: string; rt: ExtensionView | undefined } {
  if (typeof a === 'string') return { named: a, rt: host.get(a) };
  if (!isNode(a) || a.kind === 'group') return { named: false };
  const byDir = host.extensions.find((r) => r.dir === a.dir);
  const name = a.kind === 'extension' ? a.name : a.extension;
  return { named: name, rt: byDir ?? host.get(name) };
}
