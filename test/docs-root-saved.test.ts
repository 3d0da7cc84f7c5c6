import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addProject } from '../src/cli/local-commands.js';
import { loadConfig } from '../src/config/config.js';
import { openStore, projectWritable, type Store } from '../src/store/index.js';
import { createGitRepo } from './helpers/git-repo.js';

describe('a docs root is normalised once, when a project is saved', () => {
  let dataDir: string | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    store = undefined;
    dataDir = undefined;
  });

  it('stores `./docs/` as `docs` and refuses a root outside the repository', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-root-'));
    store = await openStore({ dataDir });
    const saved = await store.projects.create({
      id: 'p',
      repository: '/r',
      baseRef: 'main',
      docsRoot: './docs/',
    });
    expect(saved.docs_root).toBe('docs');
    expect((await store.projects.get('p'))?.docs_root).toBe('docs');
    await expect(
      store.projects.create({ id: 'q', repository: '/r', baseRef: 'main', docsRoot: '../elsewhere' }),
    ).rejects.toThrow('The docs root "../elsewhere" cannot be used: paths may not contain ".."');
  });

  it('`docwright project add --writable` saves the globs the write policy of its runs reads', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-root-'));
    const repo = await createGitRepo({ 'README.md': '# Repo\n' });
    try {
      const config = loadConfig({}, { dataDir });
      await addProject(config, process.env, {
        id: 'p',
        repository: repo.dir,
        ref: 'main',
        docsRoot: './',
        writable: 'README.md, CHANGELOG.md',
      });
      store = await openStore({ dataDir });
      const saved = await store.projects.get('p');
      expect(saved?.docs_root).toBe('');
      expect(projectWritable(saved!)).toEqual(['README.md', 'CHANGELOG.md']);
    } finally {
      await repo.cleanup();
    }
  });

  it('`docwright project add --docs-root` says what is wrong before it looks at the repository', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-root-'));
    const config = loadConfig({}, { dataDir });
    await expect(
      addProject(config, process.env, { id: 'p', repository: '/nowhere', ref: 'main', docsRoot: '.github' }),
    ).rejects.toThrow('The docs root ".github" cannot be used: .github/ is never written');
  });
});
