import { describe, expect, it } from 'vitest';
import { llmsFullText, llmsText } from '../src/assistant/llms-text.js';
import type { ReaderPage, ReaderSite } from '../src/docs/index.js';
import { checkLlmsText } from './helpers/llms-format.js';

const page = (
  file: string,
  title: string,
  groups: string[],
  extra: Partial<ReaderPage> = {},
): ReaderPage => ({
  file: `${file}.mdx`,
  urlPath: `/${file}`,
  href: `/${file}`,
  markdownFile: `${file}.md`,
  title,
  groups,
  listed: groups.length > 0,
  markdown: `# ${title}\n\nText of ${title}.\n`,
  ...extra,
});

const SITE: ReaderSite = {
  name: 'Acme',
  pages: [
    page('index', 'Home', ['Start'], { markdownFile: 'index.md', description: 'Acme runs your apps.' }),
    page('setup', 'Set [it] up', ['Start'], { description: 'Install it.\nThen sign in.' }),
    page('api/errors', 'Errors', ['API', 'Reference']),
    page('notes', 'Notes', []),
  ],
};
const options = { name: 'Acme', linkOf: (each: ReaderPage) => `https://docs.acme.dev/${each.markdownFile}` };

describe('llms.txt and llms-full.txt of a site', () => {
  it('writes the H1, the summary and one H2 per top navigation group, unlisted pages last', () => {
    const text = llmsText(SITE, options);
    expect(checkLlmsText(text).problems).toEqual([]);
    expect(text).toBe(
      [
        '# Acme',
        '',
        '> Acme runs your apps.',
        '',
        '## Start',
        '',
        '- [Home](https://docs.acme.dev/index.md): Acme runs your apps.',
        '- [Set \\[it\\] up](https://docs.acme.dev/setup.md): Install it. Then sign in.',
        '',
        '## API',
        '',
        '- [Errors](https://docs.acme.dev/api/errors.md)',
        '',
        '## Other pages',
        '',
        '- [Notes](https://docs.acme.dev/notes.md)',
        '',
      ].join('\n'),
    );
  });

  it('puts every page in llms-full.txt, and stops at a page boundary past its size, saying so', () => {
    const full = [...llmsFullText(SITE, options)].join('');
    expect(full.match(/^source: /gm)).toHaveLength(4);
    expect(full).toContain('# Errors\n\nText of Errors.');
    const capped = [...llmsFullText(SITE, { ...options, maxBytes: 200 })].join('');
    expect(Buffer.byteLength(capped)).toBeLessThan(400);
    expect(capped).toMatch(
      /\[Truncated: \d more page\(s\) are left out to keep this file under 200 bytes; llms\.txt lists every page\.\]\n$/,
    );
  });

  it('the format check finds what breaks the format', () => {
    expect(checkLlmsText('## No H1\n').problems).toEqual(['the first line is not an H1']);
    expect(checkLlmsText('# A\n\n## S\n\n- not a link\n').problems).toEqual([
      'line 5: not a "- [name](url): notes" line in section S',
    ]);
  });
});
