/**
 * Which zot tools one @zot request carries when there are more than a
 * request can hold: first terva's essential tools (at most 3 per extension,
 * which the registry enforces), then the tools of extensions the prompt
 * names, then the most recently used, then the rest in the registry's order.
 */
export interface ToolChoice<T> {
  chosen: T[];
  /** The active tools not sent, in the order they would have come next. */
  left: T[];
  /** Extensions whose names the prompt mentions and that have tools. */
  named: string[];
}

export function chooseTools<T extends { name: string; extension: string; essential?: boolean }>(
  tools: readonly T[],
  prompt: string,
  /** Tool names, the most recently used first. */
  recent: readonly string[],
  max: number,
): ToolChoice<T> {
  if (tools.length <= max) return { chosen: [...tools], left: [], named: [] };
  const named = [...new Set(tools.map((t) => t.extension))].filter((e) => mentions(prompt, e));
  const rank = new Map<string, number>();
  recent.forEach((name, i) => {
    if (!rank.has(name)) rank.set(name, i);
  });
  const order = tools.map((t, i) => ({ t, i }));
  const key = (x: { t: T; i: number }): [number, number] => {
    if (x.t.essential === true) return [-1, x.i];
    if (named.includes(x.t.extension)) return [0, x.i];
    const r = rank.get(x.t.name);
    return r !== undefined ? [1, r] : [2, x.i];
  };
  order.sort((a, b) => {
    const [ga, oa] = key(a);
    const [gb, ob] = key(b);
    return ga - gb || oa - ob;
  });
  const sorted = order.map((x) => x.t);
  return { chosen: sorted.slice(0, max), left: sorted.slice(max), named };
}

/** Whether the prompt names the extension as a word of its own (case does not matter). */
function mentions(prompt: string, extension: string): boolean {
  const escaped = extension.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`, 'i').test(prompt);
}

/** Tool names from newest use to oldest, each once. */
export function mostRecentFirst(uses: readonly string[][]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of uses) for (const name of list) if (!seen.has(name)) {
    seen.add(name);
    out.push(name);
  }
  return out;
}
