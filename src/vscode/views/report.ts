/**
 * The diagnostics ("doctor") report as markdown: what `zot-host doctor` prints,
 * laid out for reading in an editor.
 */
import * as path from 'node:path';
import { globalExtensionsDir, HOST_VERSION, projectExtensionsDir, stateLabel, type ExtensionReport, type HostReader } from '../../host/index.js';
import { code, escapeMarkdown } from './presentation.js';

export interface ReportContext {
  /** The workspace folders, in order; empty without a folder. */
  projects: readonly string[];
  trusted: boolean;
  explicitPaths: string[];
  vscodeVersion: string;
}

export function diagnosticsMarkdown(host: HostReader, ctx: ReportContext): string {
  const reports = host.diagnostics();
  const out: string[] = [];
  out.push('# Zot extensions: diagnostics', '');
  out.push(`Generated ${new Date().toISOString()} by the Zot Extensions host ${escapeMarkdown(HOST_VERSION)} in VS Code ${escapeMarkdown(ctx.vscodeVersion)}.`, '');
  out.push(`- zot home: ${code(host.zotHome)}`);
  const open = ctx.projects.length > 0;
  out.push(`- workspace: ${open ? ctx.projects.map(code).join(', ') : '(no folder open: project extensions need an open folder)'}${open ? ` — ${ctx.trusted ? 'trusted' : '**not trusted** (its extensions are not started)'}` : ''}`);
  out.push('- searched, in load order:');
  ctx.explicitPaths.forEach((p) => out.push(`  1. ${code(p)} (zot.extensionPaths)`));
  ctx.projects.forEach((p) => out.push(`  1. ${code(projectExtensionsDir(p))} (project)`));
  out.push(`  1. ${code(globalExtensionsDir(host.zotHome))} (global)`, '');

  if (reports.length === 0) {
    out.push('No extensions found. Install one into one of the folders above (each extension is a folder with an `extension.json`).');
    return out.join('\n') + '\n';
  }

  out.push('| extension | state | from | commands | tools | problems |', '|---|---|---|---:|---:|---:|');
  for (const r of reports) {
    out.push(`| ${escapeMarkdown(r.name)} | ${stateLabel(r.state)} | ${r.source} | ${r.commands.length} | ${r.tools.length} | ${r.diagnostics.length + r.dropped_diagnostics} |`);
  }
  out.push('');
  for (const r of reports) out.push(...section(r), '');
  return out.join('\n');
}

function section(r: ExtensionReport): string[] {
  const out = [`## ${escapeMarkdown(r.name)}${r.version ? ` ${escapeMarkdown(r.version)}` : ''}`, ''];
  out.push(`- state: **${stateLabel(r.state)}**${r.assets_only ? ' (ships only a theme or skills)' : ''}`);
  if (r.error) out.push(`- ${r.kind === 'held' ? 'held because' : 'error'}: ${escapeMarkdown(r.error)}`);
  out.push(`- folder: ${code(r.dir)} (${r.source})`, `- log: ${code(r.log)}`);
  if (r.pid !== null) out.push(`- process: ${r.pid}`);
  if (r.capabilities.length) out.push(`- capabilities: ${r.capabilities.map(code).join(', ')}`);
  if (r.subscriptions.events.length) out.push(`- events: ${r.subscriptions.events.map(code).join(', ')}`);
  if (r.subscriptions.intercept.length) out.push(`- intercepts: ${r.subscriptions.intercept.map(code).join(', ')}`);
  if (r.late_replies) out.push(`- late replies dropped: ${r.late_replies}`);
  if (r.commands.length) {
    out.push('', '| command | description | status |', '|---|---|---|');
    for (const c of r.commands) out.push(`| ${code('/' + c.name)} | ${cell(c.description)} | ${c.active ? 'active' : `inactive: shadowed by ${escapeMarkdown(c.shadowed_by ?? '?')}`} |`);
  }
  if (r.tools.length) {
    out.push('', '| tool | description | status |', '|---|---|---|');
    for (const t of r.tools) out.push(`| ${code(t.name)}${t.interactive ? ' (interactive)' : ''} | ${cell(t.description)} | ${t.active ? 'active' : `inactive: shadowed by ${escapeMarkdown(t.shadowed_by ?? '?')}`} |`);
  }
  if (r.diagnostics.length || r.dropped_diagnostics) {
    out.push('', '**Problems**', '');
    if (r.dropped_diagnostics) out.push(`- (${r.dropped_diagnostics} older problems dropped)`);
    for (const d of r.diagnostics) out.push(`- ${escapeMarkdown(d)}`);
  }
  return out;
}

function cell(text: string): string {
  return escapeMarkdown(text.replace(/\s+/g, ' ')) || '—';
}

export const reportTitle = (project: string | undefined): string => `Zot Diagnostics${project ? ` (${path.basename(project)})` : ''}.md`;
