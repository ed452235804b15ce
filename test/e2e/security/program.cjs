// A project extension for the consent e2e suite: when its code runs it leaves
// `ran-<version>` in the workspace root, and its `crash_proj` tool makes it exit.
function program(version) {
  return `const fs = require('node:fs');
const path = require('node:path');
fs.writeFileSync(path.join(__dirname, '..', '..', '..', 'ran-${version}'), String(process.pid));
const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
send({ type: 'hello', name: 'proj', version: '${version}', capabilities: [] });
send({ type: 'register_tool', name: 'crash_proj', description: 'exits at once', schema: { type: 'object', properties: {} } });
send({ type: 'ready' });
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) {
    const f = JSON.parse(buf.slice(0, i));
    if (f.type === 'tool_call') process.exit(7);
    if (f.type === 'shutdown') process.exit(0);
  }
});
process.stdin.on('end', () => process.exit(0));
`;
}

module.exports = { program };
