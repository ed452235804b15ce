/**
 * The hook verb with no editor window to answer: the extensions of the
 * user's zot home (and of the project, where allowed) are started in this
 * process, asked, and stopped. The part of `zot-host hook` that needs the
 * host's process side, vscode-jsonrpc and the MCP face's tool names, so
 * dist/hook.js loads it (from dist/cli.js) only when it runs.
 */
import { runHookOn } from '../host/hooks/index.js';
import { servesTool } from '../mcp/index.js';
import { boundedStringify } from '../protocol/index.js';
import type { RunAlone } from './hook.js';
import { withSession } from './running/session.js';

export const runAlone: RunAlone = (p, input, notes, deadline, answer) => {
  // The agent runs hooks in the project and names it in the input: its extensions are the project's.
  const options = p.cwdGiven || !input.cwd ? p.host : { ...p.host, cwd: input.cwd };
  return withSession(options, async ({ host }) => {
    const output = await runHookOn(host, input, (name) => servesTool(host, name), notes, { failClosed: p.failClosed, answerBy: deadline });
    return answer(boundedStringify(output));
  }, { announce: false });
};
