import matter from 'gray-matter';

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

const FRONTMATTER_BLOCK = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

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
  const block = FRONTMATTER_BLOCK.exec(content);
  if (!block) return { keywords: [], noindex: false, hidden: false, body: content };
  const yaml = block[1] ?? '';
  return {
    title: salvageField(yaml, 'title'),
    description: salvageField(yaml, 'description'),
    keywords: [],
    sidebarTitle: salvageField(yaml, 'sidebarTitle'),
    noindex: isTrue(salvageField(yaml, 'noindex')) || isFalse(salvageField(yaml, 'searchable')),
    hidden: isTrue(salvageField(yaml, 'hidden')),
    body: content.slice(block[0].length),
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
