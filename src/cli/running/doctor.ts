/** `zot-host doctor`: every extension found and what is true of it when it prints. */
import * as path from 'node:path';
import { boundedStringify, projectExtensionsDir, stateLabel, type ExtensionReport } from '../../host/index.js';
import type { Parsed } from '../args.js';
import { out } from '../output.js';
import type { Session } from './session.js';

export async function doctor({ host }: Session, p: Parsed): Promise<number> {
  // One still before its hello has not said anything yet: wait for its hello bound, and no longer.
  await host.whenHelloDecided();
  const reports = host.diagnostics();
  if (p.json) {
    out(boundedStringify({ extensions: reports.map(({ pid: _pid, ...r }) => r) }, 2));
  } else if (reports.length === 0) {
    out(`no extensions found (looked in ${path.join(host.zotHome, 'extensions')} and the project's ${projectExtensionsDir('')})`);
  } else {
    out(reports.map(formatReport).join('\n\n'));
  }
  return reports.some((r) => r.kind === 'failed') ? 1 : 0;
}

function formatReport(r: ExtensionReport): string {
  const lines = [`${r.name}${r.version ? ` ${r.version}` : ''}: ${stateLabel(r.state)}${r.assets_only ? ' (theme or skills only)' : ''}`];
  lines.push(`  folder: ${r.dir} (${r.source})`, `  log:    ${r.log}`);
  if (r.error) lines.push(`  ${r.kind === 'held' ? 'held:  ' : 'error: '} ${r.error}`);
  if (r.bootstrap) lines.push(`  ${r.kind === 'starting' ? 'building:' : 'bootstrap:'} ${r.bootstrap}`);
  if (r.capabilities.length) lines.push(`  capabilities: ${r.capabilities.join(', ')}`);
  for (const c of r.commands) lines.push(`  command /${c.name}${c.active ? '' : ` (inactive: shadowed by ${c.shadowed_by})`}${c.description ? ` - ${c.description}` : ''}`);
  for (const t of r.tools) lines.push(`  tool ${t.name}${t.interactive ? ' [interactive]' : ''}${t.active ? '' : ` (inactive: shadowed by ${t.shadowed_by})`}${t.withdrawn ? ' (withdrawn by its extension)' : ''}${t.description ? ` - ${t.description}` : ''}`);
  if (r.subscriptions.events.length) lines.push(`  events: ${r.subscriptions.events.join(', ')}`);
  if (r.subscriptions.intercept.length) lines.push(`  intercepts: ${r.subscriptions.intercept.join(', ')}`);
  if (r.model_context_bytes) lines.push(`  model context: ${r.model_context_bytes} bytes`);
  if (r.context_cards.length) lines.push(`  context cards: ${r.context_cards.join(', ')}`);
  if (r.status.length) lines.push(`  status: ${r.status.map((s) => s.text).join(' · ')}`);
  for (const d of r.diagnostics) lines.push(`  problem: ${d}`);
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}
