/**
 * The consent question as the test bundle asks it: the same notification a
 * user sees, and a way for an end-to-end test to answer it, since a test
 * cannot click a notification through the extension API.
 */
import * as vscode from 'vscode';
import type { ConsentQuestion } from '../trust/workspaceGate.js';

export class ConsentQuestions {
  /** The newest open question per extension, and how to settle it. */
  private readonly open = new Map<string, (choice: string | undefined) => void>();

  readonly ask: ConsentQuestion = (extension, message, choices) => new Promise((resolve) => {
    const settle = (choice: string | undefined): void => {
      if (this.open.get(extension) === settle) this.open.delete(extension);
      resolve(choice);
    };
    this.open.set(extension, settle);
    vscode.window.showInformationMessage(message, ...choices).then(settle, () => settle(undefined));
  });

  /** Extensions whose question is still open. */
  pending(): string[] {
    return [...this.open.keys()];
  }

  /** Answers an open question as if the user clicked; false when none is open. */
  answer(extension: string, choice: string | undefined): boolean {
    const settle = this.open.get(extension);
    if (!settle) return false;
    settle(choice);
    return true;
  }
}
