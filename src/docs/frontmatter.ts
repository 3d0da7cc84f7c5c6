import matter from 'gray-matter';
import { splitFrontmatter } from './page-syntax.js';

/** The frontmatter fields search uses, and the Markdown after the frontmatter block. */
export interface Frontmatter {
  title?: string;
  description?: string;
  keywords: string[];
  /** The shorter title the navigation shows, which readers see and repeat. */
  sidebarTitle?: string;
  /**
   * The page asks to stay out of search: `noindex: true`, or `searchable: false` (out of the
   * site's search and its assistant's context, still in its sitemap).
   */
  noindex: boolean;
  /** `hidden: true`: out of the navigation, and out of search unless the site indexes hidden pages. */
  hidden: boolean;
  /** `slug`: the URL a framework serves the page at, where it reads one (Docusaurus, Starlight). */
  slug?: string;
  /** `id`: the page's name in a Docusaurus sidebar, in place of its file name. */
  id?: string;
  body: string;
}

/**
 * Reads a page's frontmatter with gray-matter. Invalid YAML never fails the page (one broken
 * file must not take the whole index down): the block is cut off and `title:` / `description:`
 * lines are salvaged when they are plain `key: value` lines.
 */
export function readFrontmatter(content: string): Frontmatter {
  try {
    // Passing options (even empty) turns off gray-matter's module-level cache keyed by the whole
    // file text, which would otherwise keep every page ever parsed alive across index rebuilds.
    const parsed = matter(content, {});
    const data = parsed.data as Record<string, unknown>;
    return {
      title: asText(data.title),
      description: asText(data.description),
      keywords: asTextList(data.keywords),
      sidebarTitle: asText(data.sidebarTitle),
      noindex: isTrue(data.noindex) || isFalse(data.searchable),
      hidden: isTrue(data.hidden),
      ...optional('slug', asText(data.slug)),
      ...optional('id', asText(data.id)),
      body: parsed.content,
    };
  } catch {
    return salvage(content);
  }
}

function salvage(content: string): Frontmatter {
  const { yaml, body } = splitFrontmatter(content);
  if (yaml === undefined) return { keywords: [], noindex: false, hidden: false, body: content };
  return {
    title: salvageField(yaml, 'title'),
    description: salvageField(yaml, 'description'),
    keywords: [],
    sidebarTitle: salvageField(yaml, 'sidebarTitle'),
    noindex: isTrue(salvageField(yaml, 'noindex')) || isFalse(salvageField(yaml, 'searchable')),
    hidden: isTrue(salvageField(yaml, 'hidden')),
    body,
  };
}

function salvageField(yaml: string, key: string): string | undefined {
  const line = new RegExp(`^${key}:[ \\t]*(.+)$`, 'm').exec(yaml);
  const value = line?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2');
  return value ? value : undefined;
}

function optional<Key extends string>(key: Key, value: string | undefined): { [K in Key]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [K in Key]?: string };
}

const isTrue = (value: unknown) => value === true || value === 'true';
const isFalse = (value: unknown) => value === false || value === 'false';

/** A scalar frontmatter value as text (YAML may give numbers, booleans or dates). */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return undefined;
}

function asTextList(value: unknown): string[] {
  const items = Array.isArray(value)
    ? (value as unknown[])
    : typeof value === 'string'
      ? value.split(',')
      : [];
  return items.map(asText).filter((item): item is string => item !== undefined);
}

/**
 * What is wrong with a frontmatter block's YAML, read by the same parser as every page's
 * frontmatter: not YAML (with the reason and the file line, the opening `---` being line 1), or
 * YAML that is not a mapping of keys. Undefined when it is fine.
 */
export function frontmatterFault(
  yaml: string,
): { kind: 'invalid yaml'; reason: string; line: number } | { kind: 'not a mapping' } | undefined {
  try {
    const data: unknown = matter(`---\n${yaml}\n---\n`, {}).data;
    return Array.isArray(data) || typeof data !== 'object' || data === null
      ? { kind: 'not a mapping' }
      : undefined;
  } catch (error) {
    const yamlError = error as { reason?: string; mark?: { line?: number }; message?: string };
    const reason = yamlError.reason ?? yamlError.message?.split('\n')[0] ?? 'invalid YAML';
    // The mark counts from the opening `---` line, which is line 1 of the file.
    const line = typeof yamlError.mark?.line === 'number' ? yamlError.mark.line + 1 : 1;
    return { kind: 'invalid yaml', reason, line };
  }
}
