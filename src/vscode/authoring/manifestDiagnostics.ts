/**
 * Problems in an open extension.json that its JSON schema cannot see: the
 * manifest rules the host applies when it loads the folder, and whether the
 * `exec` it names can be run from there (found, a file, executable).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkManifest, MANIFEST_FILE, resolveExec } from '../../host/index.js';

/** A manifest inside an extensions folder: …/extensions/<dir>/extension.json. */
const MANIFEST_PATH = /[\\/]extensions[\\/][^\\/]+[\\/]extension\.json$/;
const CHECK_AFTER_MS = 300;

export function registerManifestDiagnostics(): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('zot-manifest');
  const timers = new Map<string, NodeJS.Timeout>();
  const check = (doc: vscode.TextDocument): void => {
    if (doc.uri.scheme !== 'file' || !MANIFEST_PATH.test(doc.uri.fsPath)) return;
    collection.set(doc.uri, manifestProblems(doc));
  };
  const checkSoon = (doc: vscode.TextDocument): void => {
    const key = doc.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => {
      timers.delete(key);
      check(doc);
    }, CHECK_AFTER_MS));
  };
  vscode.workspace.textDocuments.forEach(check);
  return vscode.Disposable.from(
    collection,
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidSaveTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((e) => checkSoon(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
  );
}

function manifestProblems(doc: vscode.TextDocument): vscode.Diagnostic[] {
  const text = doc.getText();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return []; // the JSON language service reports syntax errors itself
  }
  const dir = path.dirname(doc.uri.fsPath);
  const problem = (message: string, field?: string): vscode.Diagnostic => {
    const d = new vscode.Diagnostic(valueRange(doc, text, field), message, vscode.DiagnosticSeverity.Error);
    d.source = 'zot';
    return d;
  };
  const checked = checkManifest(raw, dir, path.join(dir, MANIFEST_FILE));
  if (!checked.ok) {
    // Messages name the file first ("…/extension.json: "name" is required");
    // in the editor the file is already in view.
    const message = checked.error.startsWith(doc.uri.fsPath) ? checked.error.slice(doc.uri.fsPath.length).replace(/^:\s*/, '') : checked.error;
    return [problem(message, /^"(\w+)"/.exec(message)?.[1])];
  }
  const exec = checked.manifest.exec;
  if (exec === undefined) return [];
  const resolved = resolveExec(exec, dir);
  if (resolved.ok) return [];
  const hint = /^\.{0,2}\//.test(exec) || exec.includes('/') ? ' (a relative exec is resolved against this folder)' : ' (a bare name is looked up on PATH)';
  return [problem(`${resolved.error}${hint}`, 'exec')];
}

/** The range of a top-level field's value, else the first line. */
function valueRange(doc: vscode.TextDocument, text: string, field: string | undefined): vscode.Range {
  if (field) {
    const m = new RegExp(`"${field}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|[^,}\\s]+)`).exec(text);
    if (m) {
      const start = m.index + m[0].length - m[1]!.length;
      return new vscode.Range(doc.positionAt(start), doc.positionAt(start + m[1]!.length));
    }
  }
  return doc.lineAt(0).range;
}
