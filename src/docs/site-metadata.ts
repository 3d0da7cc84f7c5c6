import { listNavigationPages, type NavigationPage } from './navigation.js';
import type { PageMetadata } from './types.js';
import { normalizeUrlPath } from './url-path.js';

/**
 * Language codes Mintlify accepts for `navigation.languages`; a first path segment equal to one of
 * them (`fr/quickstart.mdx`) marks the page's language when the navigation does not list it.
 */
const KNOWN_LANGUAGES = [
  'ar', 'ca', 'cn', 'cs', 'de', 'en', 'es', 'fi', 'fr', 'fr-CA', 'he', 'hi', 'hu', 'id', 'it', 'ja',
  'ja-jp', 'jp', 'ko', 'lv', 'nl', 'no', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sv', 'tr', 'uk', 'uz', 'vi',
  'zh', 'zh-Hans', 'zh-Hant',
]; // prettier-ignore

/** Language, version, groups and navigation order of the pages of one site. */
export interface SiteMetadata {
  /** The language of pages that neither the navigation nor a path prefix assigns one. */
  readonly defaultLanguage: string;
  /** Metadata of the page served at `urlPath`. */
  pageMetadata(urlPath: string): PageMetadata;
  /** Pages listed right before and after `urlPath` in the navigation. */
  navigationNeighbours(urlPath: string): string[];
  /** The site's `name` in its config (the product readers ask about), if any. */
  readonly name?: string;
  /** The first page the navigation lists in `language`: where a reader new to the product starts. */
  landingPage(language: string): string | undefined;
  /** `seo.indexing: "all"`: pages marked `hidden: true` are searched like any other. */
  readonly indexesHiddenPages: boolean;
}

export interface SiteMetadataOptions {
  /** Overrides the default language (else the navigation's `default: true` language, else `en`). */
  defaultLanguage?: string;
  /** Page entries of a navigation that is not Mintlify's (URL paths, in order); read instead of `navigation`. */
  entries?: readonly { page: string; groups: string[] }[] | undefined;
  /** Languages of translated pages by URL path, where the framework says so (its locale folders). */
  pageLanguages?: ReadonlyMap<string, string> | undefined;
}

/** Reads what the navigation config (parsed docs.json or mint.json, or nothing) says about pages. */
export function createSiteMetadata(navigation: unknown, options: SiteMetadataOptions = {}): SiteMetadata {
  const listedPages: NavigationPage[] = options.entries
    ? options.entries.map((entry) => ({ page: entry.page, groups: [...entry.groups] }))
    : listNavigationPages(navigation);
  const entries = listedPages.map((entry) => ({
    ...entry,
    urlPath: normalizeUrlPath(entry.page),
  }));
  const defaultLanguage = options.defaultLanguage ?? markedDefaultLanguage(navigation) ?? 'en';
  const languages = new Map(KNOWN_LANGUAGES.map((code) => [code.toLowerCase(), code]));
  const versions = new Set<string>();
  const listed = new Map<string, PageMetadata>();
  for (const entry of entries) {
    if (entry.language) languages.set(entry.language.toLowerCase(), entry.language);
    if (entry.version) versions.add(entry.version);
    const known = listed.get(entry.urlPath);
    if (known) {
      // A page listed twice (two groups, two tabs) belongs to all of them.
      for (const group of entry.groups) if (!known.groups.includes(group)) known.groups.push(group);
      continue;
    }
    listed.set(entry.urlPath, {
      language: entry.language ?? '',
      version: entry.version,
      groups: [...entry.groups],
      tab: entry.tab,
    });
  }

  const pageMetadata = (urlPath: string): PageMetadata => {
    const firstSegment = urlPath.split('/')[1] ?? '';
    const fromPath = languages.get(firstSegment.toLowerCase());
    const known = listed.get(urlPath);
    const language = options.pageLanguages?.get(urlPath) || known?.language || fromPath || defaultLanguage;
    const version = known?.version ?? (versions.has(firstSegment) ? firstSegment : undefined);
    return { language, version, groups: known ? [...known.groups] : [], tab: known?.tab };
  };

  const navigationNeighbours = (urlPath: string): string[] => {
    const neighbours = new Set<string>();
    entries.forEach((entry, index) => {
      if (entry.urlPath !== urlPath) return;
      const before = entries[index - 1]?.urlPath;
      const after = entries[index + 1]?.urlPath;
      if (before !== undefined && before !== urlPath) neighbours.add(before);
      if (after !== undefined && after !== urlPath) neighbours.add(after);
    });
    return [...neighbours];
  };

  const landingPage = (language: string) =>
    entries.find((entry) => (entry.language || defaultLanguage) === language && !entry.version)?.urlPath ??
    entries.find((entry) => (entry.language || defaultLanguage) === language)?.urlPath;

  const name = isObject(navigation) && typeof navigation.name === 'string' ? navigation.name : undefined;
  const seo = isObject(navigation) ? navigation.seo : undefined;
  const indexesHiddenPages = isObject(seo) && seo.indexing === 'all';
  return { defaultLanguage, pageMetadata, navigationNeighbours, name, landingPage, indexesHiddenPages };
}

/** The `language` of the `navigation.languages` entry marked `default: true`, if any. */
function markedDefaultLanguage(config: unknown): string | undefined {
  const navigation = isObject(config) ? config.navigation : undefined;
  const languages = isObject(navigation) ? navigation.languages : undefined;
  if (!Array.isArray(languages)) return undefined;
  const marked = languages.find((entry) => isObject(entry) && entry.default === true) as
    Record<string, unknown> | undefined;
  return typeof marked?.language === 'string' ? marked.language : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
