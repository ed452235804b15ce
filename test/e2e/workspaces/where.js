// A zot extension that says where it runs: its one tool, `<name>_where`,
// answers with the cwd its hello_ack gave it and its own pid.
'use strict';
const readline = require('node:readline');

const name = process.argv[2];
const tool = `${name.replace(/-/g, '_')}_where`;
const send = (f) => process.stdout.write(JSON.stringify(f) + '\n');
let ack;

send({ type: 'hello', name, version: '1.0.0', capabilities: ['tools'] });
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const f = JSON.parse(line);
  if (f.type === 'hello_ack') {
    ack = f;
    send({ type: 'register_tool', name: tool, description: `where ${name} runs`, schema: { type: 'object', properties: {} } });
    send({ type: 'ready' });
  } else if (f.type === 'tool_call') {
    send({ type: 'tool_result', id: f.id, content: [{ type: 'text', text: JSON.stringify({ cwd: ack.cwd, pid: process.pid }) }] });
  } else if (f.type === 'shutdown') {
    process.exit(0);
  }
});
