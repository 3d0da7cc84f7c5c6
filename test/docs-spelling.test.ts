import { describe, expect, it } from 'vitest';
import { DocsIndex } from '../src/docs/docs-index.js';
import { otherSpellings } from '../src/docs/spelling.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

describe('British and American spellings', () => {
  it('gives the other spelling of the regular differences, both ways', () => {
    const pairs: [string, string][] = [
      ['colour', 'color'],
      ['colours', 'colors'],
      ['behaviour', 'behavior'],
      ['favourite', 'favorite'],
      ['customise', 'customize'],
      ['customised', 'customized'],
      ['organisation', 'organization'],
      ['analyse', 'analyze'],
      ['centre', 'center'],
      ['catalogue', 'catalog'],
      ['cancelled', 'canceled'],
      ['labelling', 'labeling'],
      ['licence', 'license'],
      ['grey', 'gray'],
    ];
    for (const [british, american] of pairs) {
      expect(otherSpellings(british)).toEqual([american]);
      expect(otherSpellings(american)).toEqual([british]);
    }
  });

  it('leaves alone words spelled alike on both sides', () => {
    for (const word of [
      'hour',
      'four',
      'your',
      'tour',
      'source',
      'installed',
      'called',
      'size',
      'rise',
      'docs',
    ]) {
      expect(otherSpellings(word)).toEqual([]);
    }
  });

  it('finds the page a reader names in the other spelling, on an American and on a British site', () => {
    const american = DocsIndex.build([
      {
        path: 'theme.mdx',
        content: page('Customize colors', 'Set the primary color and the sidebar background.'),
      },
      { path: 'sidebar.mdx', content: page('Sidebar', 'The sidebar lists the pages of the docs, grouped.') },
    ]);
    expect(american.search('customise the colour of the sidebar')[0]?.urlPath).toBe('/theme');
    const british = DocsIndex.build([
      {
        path: 'theme.mdx',
        content: page('Customise colours', 'Set the primary colour and the sidebar background.'),
      },
      { path: 'sidebar.mdx', content: page('Sidebar', 'The sidebar lists the pages of the docs, grouped.') },
    ]);
    expect(british.search('customize the color of the sidebar')[0]?.urlPath).toBe('/theme');
  });
});
