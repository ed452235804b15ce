// The Node template: one file, no dependencies, no SDK. zot's wire format is
// small enough to speak by hand, and an author can read every frame here.
import type { Template } from './template.js';

export const node: Template = ({ name, command, tool }) => ({
  'extension.json': manifest({ name, exec: 'node', args: ['index.mjs'], language: 'javascript' }),
  'index.mjs': `// ${name}: a zot extension in plain Node (no dependencies).
// The host starts this program and talks to it in newline-delimited JSON:
// one frame per line on stdin and stdout. stderr goes to the extension's log.
import { createInterface } from 'node:readline';

const send = (frame) => process.stdout.write(JSON.stringify(frame) + '\\n');
const log = (text) => process.stderr.write(\`[${name}] \${text}\\n\`);

// Calls in progress, so a tool_cancel can stop one.
const running = new Map();

send({ type: 'hello', name: '${name}', version: '0.1.0', capabilities: ['commands', 'tools', 'tool_cancel'] });
send({ type: 'register_command', name: '${command}', description: 'Say hello (try: /${command} world)' });
send({
  type: 'register_tool',
  name: '${tool}',
  description: 'Reverse the given text.',
  schema: { type: 'object', properties: { text: { type: 'string', description: 'The text to reverse' } }, required: ['text'] },
});
send({ type: 'ready' });

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  let frame;
  try {
    frame = JSON.parse(line);
  } catch {
    log(\`not JSON: \${line.slice(0, 200)}\`);
    return;
  }
  switch (frame.type) {
    case 'hello_ack':
      log(\`connected to zot \${frame.zot_version}, project \${frame.cwd}\`);
      break;
    case 'command_invoked':
      // Actions: display (show text), prompt (send to the model), insert
      // (put text at the cursor), open_panel, noop; or an error.
      send({ type: 'command_response', id: frame.id, action: 'display', display: \`Hello, \${frame.args || 'world'}!\` });
      break;
    case 'tool_call':
      runTool(frame);
      break;
    case 'tool_cancel':
      // The host gave up on this call: stop, and send no result for it.
      running.get(frame.id)?.abort();
      running.delete(frame.id);
      break;
    case 'shutdown':
      send({ type: 'shutdown_ack' });
      process.exit(0);
    default:
      log(\`ignoring a frame of type \${frame.type}\`);
  }
});

async function runTool(frame) {
  const controller = new AbortController();
  running.set(frame.id, controller);
  try {
    const text = frame.args?.text;
    if (typeof text !== 'string') {
      send({ type: 'tool_result', id: frame.id, is_error: true, content: [{ type: 'text', text: 'text must be a string' }] });
      return;
    }
    const reversed = [...text].reverse().join('');
    if (!controller.signal.aborted) send({ type: 'tool_result', id: frame.id, content: [{ type: 'text', text: reversed }] });
  } finally {
    running.delete(frame.id);
  }
}
`,
  'README.md': readme(name, command, tool, 'Node 22 or later', [
    'Edit `index.mjs`; the host restarts the extension when you run *Zot: Restart Extension*.',
  ]),
});

export function manifest(fields: { name: string; exec: string; args: string[]; language: string }): string {
  return (
    JSON.stringify(
      { name: fields.name, version: '0.1.0', description: `The ${fields.name} zot extension`, exec: fields.exec, args: fields.args, language: fields.language },
      null,
      2,
    ) + '\n'
  );
}

export function readme(name: string, command: string, tool: string, needs: string, notes: string[]): string {
  return `# ${name}

A zot extension: it adds the command \`/${command}\` and the tool \`${tool}\`, which the model can call.

Needs ${needs}.

## Try it

\`\`\`sh
zot-host doctor --no-discover --ext .         # is it ready, and what does it register?
zot-host command ${command} world --no-discover --ext .
zot-host tool ${tool} '{"text":"hello"}' --no-discover --ext .
\`\`\`

In VS Code, put this folder in your project's \`.zot/extensions/\` (or your zot home's \`extensions/\`): the
command shows up in *Zot: Run Extension Command…* and as \`@zot /${command}\`, the tool in \`@zot\` chat and
agent mode. Under zot itself, run \`zot --ext .\` here.

${notes.map((n) => `- ${n}`).join('\n')}

## How it talks

The host starts the program named by \`exec\` in \`extension.json\` and exchanges one JSON object per line on
stdin and stdout: the extension says \`hello\`, registers its commands and tools, says \`ready\`, then answers
\`command_invoked\` with \`command_response\` and \`tool_call\` with \`tool_result\`. Anything written to stderr
goes to the extension's log.
`;
}
