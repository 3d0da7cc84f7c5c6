/**
 * Whether an MDX page still parses, decided by micromark's MDX extension and mdast-util-mdx: the
 * parser underneath `@mdx-js/mdx` and so the sites built with it. JSX that is not closed or closed
 * in the wrong order, a stray `{`, a broken `import` all fail here as they fail the site's build.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { mdxjs } from 'micromark-extension-mdxjs';
import { frontmatterOf } from '../docs/page-syntax.js';

/** Made once: the extensions hold no state between documents. */
const SYNTAX = [mdxjs()];
const TREE = [mdxFromMarkdown()];

/** Where and why an MDX text fails to parse, or undefined when it parses. */
export function mdxSyntaxError(content: string): { line?: number; message: string } | undefined {
  try {
    fromMarkdown(withoutFrontmatter(content), { extensions: SYNTAX, mdastExtensions: TREE });
    return undefined;
  } catch (error) {
    const failure = error as {
      reason?: unknown;
      line?: unknown;
      message?: unknown;
      place?: { line?: unknown; start?: { line?: unknown } };
    };
    const reason = typeof failure.reason === 'string' ? failure.reason : String(failure.message ?? error);
    const line = [failure.line, failure.place?.start?.line, failure.place?.line].find(
      (value): value is number => typeof value === 'number',
    );
    return {
      ...(line === undefined ? {} : { line }),
      message: `the MDX does not parse: ${reason.replace(/\s+/g, ' ').trim()}`,
    };
  }
}

/** The frontmatter block blanked to empty lines, so the parser's line numbers stay the file's own. */
function withoutFrontmatter(content: string): string {
  const lines = content.split(/(?<=\n)/);
  const block = frontmatterOf(lines);
  if (block === undefined || !block.closed) return content;
  return (
    '\n'.repeat(block.lineCount - (lines[block.lineCount - 1]?.endsWith('\n') ? 0 : 1)) +
    lines.slice(block.lineCount).join('')
  );
}
