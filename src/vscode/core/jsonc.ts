/**
 * Just enough JSONC (JSON with comments and trailing commas, the format of
 * VS Code's settings files) to read one setting. Pure.
 */

/** Parses JSONC text; undefined when it is not valid even without comments and trailing commas. */
export function parseJsonc(text: string): unknown {
  const withoutComments = scan(text, (s, i) => {
    if (s[i] === '/' && s[i + 1] === '/') {
      const end = s.indexOf('\n', i);
      return end < 0 ? s.length : end;
    }
    if (s[i] === '/' && s[i + 1] === '*') {
      const end = s.indexOf('*/', i + 2);
      return end < 0 ? s.length : end + 2;
    }
    return undefined;
  });
  const withoutTrailingCommas = scan(withoutComments, (s, i) => (s[i] === ',' && /^\s*[}\]]/.test(s.slice(i + 1, i + 1 + 256)) ? i + 1 : undefined));
  try {
    return JSON.parse(withoutTrailingCommas.trim() === '' ? '{}' : withoutTrailingCommas);
  } catch {
    return undefined;
  }
}

/** Copies `text`, leaving string literals alone; `skip` may drop a stretch outside strings by returning where it ends. */
function scan(text: string, skip: (s: string, i: number) => number | undefined): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const to = skip(text, i);
    if (to !== undefined) {
      i = to;
      continue;
    }
    out += text[i];
    i++;
  }
  return out;
}
