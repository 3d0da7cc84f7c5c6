import type { WritePolicy } from '../../write-policy/index.js';
import { ToolRefusal } from './tool-refusal.js';

/**
 * The model's tools speak in paths relative to the docs folder; this turns them into repository
 * paths and asks the write policy, turning its refusals into ToolRefusals the model reads. It has
 * no rules of its own: which paths are off limits is the policy's answer alone.
 */
export class PathGuard {
  /** The docs root, normalised: '' or e.g. `docs`. */
  readonly root: string;

  constructor(private readonly policy: WritePolicy) {
    this.root = policy.root;
  }

  /** The repository path of a docs-relative path the model gave to read, or a ToolRefusal saying why not. */
  resolve(docsPath: string): string {
    const verdict = this.policy.checkDocsPath(docsPath, 'read');
    if (!verdict.allowed) throw new ToolRefusal(`Refused ${JSON.stringify(docsPath)}: ${verdict.reason}`);
    return verdict.path;
  }

  /** The repository path of a docs-relative path the model wants to write, or a ToolRefusal. */
  resolveWritable(docsPath: string): string {
    const verdict = this.policy.checkDocsPath(docsPath, 'write');
    if (!verdict.allowed) throw new ToolRefusal(`Refused ${JSON.stringify(docsPath)}: ${verdict.reason}`);
    return verdict.path;
  }

  /** The docs-relative path of a repository path, or undefined when it is outside the docs root. */
  docsPath(repoPath: string): string | undefined {
    return this.policy.docsPath(repoPath);
  }
}
