/**
 * `zot-host hook <Event>`: one agent hook (VS Code's agent, Claude Code,
 * Copilot CLI).
 * Reads the hook input on stdin and writes the hook output as one JSON line
 * on stdout. When a VS Code window has the project open and answers hooks
 * (hookWindows.ts), the input goes there, and its running extensions answer;
 * otherwise the extensions are started here (hookAlone.ts, handed in by the
 * bundle that runs this: dist/hook.js loads it from dist/cli.js only then).
 *
 * Input that cannot be read is an error on stderr: exit 2 for PreToolUse and
 * UserPromptSubmit (the agent then stops the call or prompt, with the error as
 * the reason: nothing unread is let through), exit 1 for the others (reported,
 * and the agent goes on).
 */
import { failsClosed, HOOK_BUDGET_MS, type HookEvent, type HookInput, MAX_HOOK_INPUT_BYTES, parseHookInput, refusal, WINDOW_TIMEOUT_MS } from '../host/hooks/index.js';
import { boundedStringify } from '../protocol/index.js';
import type { Parsed } from './args.js';
import { askEditor } from './hookWindows.js';
import { err, out } from './output.js';

/**
 * The hook run with the extensions started in this process, when no window
 * answered: `notes` say why a window was not asked, `answer` prints the
 * output (once) and gives the exit status.
 */
export type RunAlone = (p: Parsed, input: HookInput, notes: string[], deadline: number, answer: (output: string) => number) => Promise<number>;

export async function hook(p: Parsed, alone: RunAlone): Promise<number> {
  const event = p.positional[0] as HookEvent;
  // The agent's clock started with this process: every path answers inside the budget.
  const deadline = Date.now() - process.uptime() * 1000 + HOOK_BUDGET_MS;
  const read = await readStdin();
  const parsed = typeof read === 'string' ? parseHookInput(event, read) : read;
  if (!parsed.ok) {
    err(`zot-host hook ${event}: ${parsed.error}`);
    return failsClosed(event) ? 2 : 1;
  }
  const input: HookInput = parsed.input;
  let late: NodeJS.Timeout | undefined;
  let answered = false;
  const answer = (output: string): number => {
    if (!answered) out(output);
    answered = true;
    return 0;
  };
  const outOfTime = new Promise<number>((resolve) => {
    // A guarded call or prompt is refused; any other hook goes on, and says why it had nothing to say.
    const reason = `zot: the guards did not answer within ${HOOK_BUDGET_MS / 1000} s of the hook's start`;
    late = setTimeout(() => resolve(answer(boundedStringify(failsClosed(event) ? refusal(input, `${reason}, so this is refused`) : { systemMessage: reason }))), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([run(p, input, read as string, deadline, answer, alone), outOfTime]);
  } finally {
    clearTimeout(late);
  }
}

async function run(p: Parsed, input: HookInput, read: string, deadline: number, answer: (output: string) => number, alone: RunAlone): Promise<number> {
  const event = input.event;
  // An editor window with the project open answers with the extensions it runs.
  const editor = await askEditor(event, read, p.cwdGiven ? p.host.cwd : input.cwd, { failClosed: p.failClosed, timeoutMs: Math.min(WINDOW_TIMEOUT_MS, deadline - Date.now()) });
  if (editor.kind === 'answered') return answer(editor.body);
  if (editor.kind === 'refused') {
    err(`zot-host hook ${event}: ${editor.error}`);
    return failsClosed(event) ? 2 : 1;
  }
  return alone(p, input, editor.kind === 'unreachable' ? [editor.note] : [], deadline, answer);
}

/** All of stdin, or why it cannot be the hook input. */
async function readStdin(): Promise<string | { ok: false; error: string }> {
  if (process.stdin.isTTY) return { ok: false, error: 'the hook input is read from stdin; run this from an agent\'s hook configuration, or pipe the input in' };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_HOOK_INPUT_BYTES) return { ok: false, error: `the hook input is larger than ${MAX_HOOK_INPUT_BYTES} bytes` };
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
