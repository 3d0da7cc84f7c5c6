import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfigReferences } from '../src/docs/config-references.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { readDocsFolder } from '../src/docs/read-docs-folder.js';

describe('resolveConfigReferences', () => {
  const files: Record<string, unknown> = {
    'fr.json': { tabs: [{ tab: 'Guides', groups: [{ group: 'Démarrer', pages: ['fr/index'] }] }] },
    'nav/de.json': { $ref: './de-groups.json' },
    'nav/de-groups.json': { groups: [{ group: 'Start', pages: ['de/index'] }] },
    'loop.json': { $ref: './loop.json' },
  };
  const readJson = (path: string) => files[path];

  it('inlines references relative to the file holding them, keeping sibling keys', () => {
    const config = {
      navigation: {
        languages: [
          { language: 'fr', $ref: './fr.json' },
          { language: 'de', $ref: './nav/de.json' },
          { language: 'es', $ref: './missing.json' },
        ],
      },
    };
    expect(resolveConfigReferences(config, readJson)).toEqual({
      navigation: {
        languages: [
          { language: 'fr', tabs: [{ tab: 'Guides', groups: [{ group: 'Démarrer', pages: ['fr/index'] }] }] },
          { language: 'de', groups: [{ group: 'Start', pages: ['de/index'] }] },
          { language: 'es', $ref: './missing.json' },
        ],
      },
    });
  });

  it('stops on cycles and never reads outside the docs root', () => {
    const seen: string[] = [];
    const reader = (path: string) => {
      seen.push(path);
      return files[path];
    };
    expect(() =>
      resolveConfigReferences({ a: { $ref: './loop.json' }, b: { $ref: '../secret.json' } }, reader),
    ).not.toThrow();
    expect(seen.every((path) => !path.startsWith('..'))).toBe(true);
  });

  it('gives pages of referenced language files their language and groups', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'docwright-docs-'));
    mkdirSync(join(folder, 'fr'));
    writeFileSync(
      join(folder, 'docs.json'),
      JSON.stringify({
        navigation: { languages: [{ language: 'en', pages: ['index'] }, { $ref: './fr.json' }] },
      }),
    );
    writeFileSync(
      join(folder, 'fr.json'),
      JSON.stringify({ language: 'fr', groups: [{ group: 'Démarrer', pages: ['fr/start'] }] }),
    );
    writeFileSync(join(folder, 'index.mdx'), '# Welcome\n\nHello.');
    writeFileSync(join(folder, 'fr', 'start.mdx'), '# Bienvenue\n\nBonjour.');
    const index = DocsIndex.fromSite(await readDocsFolder(folder));
    expect(index.page('/fr/start')).toMatchObject({ language: 'fr', groups: ['Démarrer'] });
    index.close();
  });
});
