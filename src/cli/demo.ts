import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitRunner, type GitEnvironment } from '../forge/git-command.js';
import type { Store } from '../store/index.js';

/** Small sample docs (examples/sample-docs) that many tests edit and search. */
export const SAMPLE_DOCS_DIR = fileURLToPath(new URL('../../examples/sample-docs', import.meta.url));
/**
 * docwright's own documentation (docs/), seeded into the demo repository: a newcomer's first question
 * in the chat page is answered from the real docs, and the first job edits them.
 */
const DEMO_DOCS_DIR = fileURLToPath(new URL('../../docs', import.meta.url));

const DEMO_PROJECT_ID = 'demo';
export const DEMO_DOMAIN = 'demo';

export interface DemoSetup {
  projectId: string;
  repository: string;
  /** Present only when this start created the keys: they are stored hashed and cannot be shown again. */
  keys?: { admin: string; assistant: string };
}

/**
 * On a first start with no projects, makes a local git repository from docwright's own docs and a demo
 * project with an admin and an assistant key. Later starts find the project and reuse it.
 */
export async function ensureDemo(
  store: Store,
  dataDir: string,
  environment: GitEnvironment,
): Promise<DemoSetup | null> {
  const existing = await store.projects.get(DEMO_PROJECT_ID);
  if (existing) return { projectId: existing.id, repository: existing.repository };
  if ((await store.projects.list()).length > 0) return null;

  const repository = path.join(dataDir, 'demo-repo');
  await seedRepository(repository, DEMO_DOCS_DIR, environment);
  await store.projects.create({ id: DEMO_PROJECT_ID, repository, baseRef: 'main', domain: DEMO_DOMAIN });
  const admin = await store.keys.create({ kind: 'admin', projectId: DEMO_PROJECT_ID });
  const assistant = await store.keys.create({
    kind: 'assistant',
    projectId: DEMO_PROJECT_ID,
    domain: DEMO_DOMAIN,
  });
  return { projectId: DEMO_PROJECT_ID, repository, keys: { admin: admin.key, assistant: assistant.key } };
}

/** Creates a git repository at `target` (on branch main) whose first commit holds the files of `source`. */
export async function seedRepository(
  target: string,
  source: string,
  environment: GitEnvironment,
): Promise<void> {
  await fs.rm(target, { recursive: true, force: true });
  await fs.cp(source, target, { recursive: true });
  const git = new GitRunner({
    binary: 'git',
    environment,
    identity: { name: 'docwright', email: 'docwright@localhost' },
  });
  await git.run(target, ['init', '--quiet', '--initial-branch=main', '.']);
  await git.run(target, ['add', '--all']);
  await git.run(target, ['commit', '--quiet', '--no-verify', '--message', 'Docs']);
}
