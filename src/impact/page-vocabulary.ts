import { closesFence, openingFence } from '../docs/page-syntax.js';
import { nameKey } from './name-shapes.js';

/** A docs page as the analysis receives it: a path relative to the docs root and its Markdown/MDX text. */
export interface PageInput {
  path: string;
  text: string;
}

/**
 * What a page line does with a name: `defines` it (a heading, the lead of a list item, the first
 * cell of a table row, a field component's name: the place a reference documents it), mentions
 * it in `prose`, or uses it in a `code` example.
 */
export type PageLineRole = 'defines' | 'prose' | 'code';

/** Where a name stands on a page. */
export interface PageLine {
  /** Index of the page in the vocabulary's `pages`. */
  page: number;
  /** 1-based line number in the page's text. */
  line: number;
  role: PageLineRole;
}

/** Order of preference of a page's lines, to quote and to judge it by. */
export const ROLE_RANK: Record<PageLineRole, number> = { defines: 0, prose: 1, code: 2 };

/** Longest page line read for names (a minified blob pasted into a page is no prose). */
const MAX_PAGE_LINE = 2_000;
/** Name-like words of prose: identifiers, with `-` inside (`max-retries`), after `--` for flags. */
const PAGE_WORD = /[A-Za-z_$][\w$]*(?:-[A-Za-z0-9_$]+)*/g;
/** Names written with `.`, `:` or `/` between words (`app:request:start`, `/users/:id`). */
const PAGE_COMPOUND = /\/?[\w$@-]+(?:(?:[.:]|\/:?)[\w$@{}<>-]+)+\/?/g;
const CONSTANT = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]+\d+$/;

/**
 * The names of every page, found by key (any spelling) or, for compound names, exactly: which
 * pages hold a name, on which lines, and whether only in code examples. Built once per analysis.
 */
export class PageVocabulary {
  private readonly byKey = new Map<string, PageLine[]>();
  private readonly byCompound = new Map<string, PageLine[]>();
  /** Upper-case codes as written (`ERR_TIMEOUT`, `W0123`), for families of codes. */
  private readonly byConstant = new Map<string, PageLine[]>();
  /** Each page's lines, for quoting evidence. */
  readonly lines: string[][];

  /**
   * `wanted`, when given, are the only keys looked up later (the diff's names, their neighbours
   * and words): the others are not indexed, which saves most of the work on a large site.
   * Upper-case codes and compound names are always indexed, for families.
   */
  constructor(
    readonly pages: readonly PageInput[],
    private readonly wanted?: ReadonlySet<string>,
  ) {
    this.squashedWanted = wanted && new Set([...wanted].map((key) => key.replace(/ /g, '')));
    this.lines = pages.map((page) => page.text.split(/\r?\n/));
    this.lines.forEach((lines, page) => this.addPage(page, lines));
  }

  /** Lines holding a name in any of its spellings (or exactly, for a compound name). */
  find(name: string): PageLine[] {
    return /[.:/]/.test(name)
      ? (this.byCompound.get(compoundKey(name)) ?? [])
      : (this.byKey.get(nameKey(name)) ?? []);
  }

  private readonly pageCounts = new Map<string, number>();

  /** Number of pages holding a key. */
  pageCount(key: string): number {
    let count = this.pageCounts.get(key);
    if (count === undefined) {
      count = countPages(this.byKey.get(key) ?? []);
      this.pageCounts.set(key, count);
    }
    return count;
  }

  /** Every compound name of the docs, with its lines. */
  compounds(): IterableIterator<[string, PageLine[]]> {
    return this.byCompound.entries();
  }

  /** Every upper-case code of the docs as written, with its lines. */
  constants(): IterableIterator<[string, PageLine[]]> {
    return this.byConstant.entries();
  }

  /** The text of a line of a page. */
  text(at: PageLine): string {
    return (this.lines[at.page]![at.line - 1] ?? '').trim();
  }

  private readonly keyCache = new Map<string, string>();
  /** The wanted keys without their spaces: what a page word squashes to when it may be one. */
  private readonly squashedWanted: ReadonlySet<string> | undefined;

  /**
   * The key of a page word, or '' when it is no wanted key. A word's key is its words joined by
   * spaces; lower-cased without `-` and `_` it must equal a wanted key without spaces, a cheap
   * test that rules out almost every word of a page before its key is computed.
   */
  private keyOf(word: string): string {
    if (this.squashedWanted && !this.squashedWanted.has(word.toLowerCase().replace(/[-_$]/g, ''))) return '';
    let key = this.keyCache.get(word);
    if (key === undefined) {
      key = nameKey(word);
      if (this.keyCache.size < 200_000) this.keyCache.set(word, key);
    }
    return this.wanted === undefined || this.wanted.has(key) ? key : '';
  }

  private addPage(page: number, lines: string[]): void {
    // Names are gathered per page first (at most LINES_PER_PAGE lines each), then appended to the
    // index: one map operation per name and page instead of one per occurrence.
    const keys = new Map<string, PageLine[]>();
    const constants = new Map<string, PageLine[]>();
    const compounds = new Map<string, PageLine[]>();
    let fence: string | undefined;
    for (let index = 0; index < lines.length; index += 1) {
      const text = lines[index]!;
      if (fence === undefined) {
        const opened = openingFence(text, 'markdown');
        if (opened) {
          fence = opened.marker;
          continue;
        }
      } else if (closesFence(text, fence, 'markdown')) {
        fence = undefined;
        continue;
      }
      const code = fence !== undefined;
      if (text.length > MAX_PAGE_LINE) continue;
      const line = index + 1;
      const lead = code ? undefined : lineLead(text);
      PAGE_WORD.lastIndex = 0;
      for (let match = PAGE_WORD.exec(text); match !== null; match = PAGE_WORD.exec(text)) {
        const word = match[0];
        const key = this.keyOf(word);
        const constant = isUpperCase(word.charCodeAt(0)) && CONSTANT.test(word);
        if (key === '' && !constant) continue;
        const role: PageLineRole = code
          ? 'code'
          : lead && (lead.all || lead.names.has(word))
            ? 'defines'
            : 'prose';
        if (key !== '') keep(keys, key, page, line, role);
        if (constant) keep(constants, word, page, line, role);
      }
      if (MAY_HOLD_COMPOUND.test(text))
        for (const compound of text.match(PAGE_COMPOUND) ?? [])
          if (/[A-Za-z]/.test(compound))
            keep(compounds, compoundKey(compound), page, line, code ? 'code' : 'prose');
    }
    append(this.byKey, keys);
    append(this.byConstant, constants);
    append(this.byCompound, compounds);
  }
}

/** Route parameters as frameworks and docs write them: `:id`, `{id}`, `<id>`, `[id]`. */
const ROUTE_PARAMETER = /(?<=\/):[A-Za-z_]\w*|(?<=\/)\{[^}/]*\}|(?<=\/)<[^>/]*>|(?<=\/)\[[^\]/]*\]/g;

/**
 * How a compound name is looked up: as written, but with route parameters made alike, so that
 * the code's `/users/:id` finds the docs' `/users/{id}`.
 */
function compoundKey(name: string): string {
  return name.includes('/') ? name.replace(ROUTE_PARAMETER, '{}') : name;
}

function isUpperCase(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** A quick test before the compound pattern: a separator followed by a word character. */
const MAY_HOLD_COMPOUND = /[.:/][\w$@{]/;

const HEADING = /^\s{0,3}#{1,6}\s/;
/** Lines that may document a name: headings, list items, table rows, code-span openings, fields. */
const MAY_LEAD = /^\s*(?:[#*+|`-]|\d+[.)])|="/;
const HTML_TAG = /<\/?[A-Za-z][^>]*>/g;
const FIELD_ATTRIBUTE = /\b(?:path|name|field|param|query|body|header|id|title)="([^"]+)"/g;

/**
 * The names a line documents: every name of a heading; the first name of a list item, of a table
 * row's first cell or of a line opening with a code span (`maxRetries` (number): …); the names of
 * field components (`<ParamField path="maxRetries">`). Undefined when the line documents none.
 */
function lineLead(text: string): { all: boolean; names: Set<string> } | undefined {
  if (!MAY_LEAD.test(text)) return undefined;
  if (HEADING.test(text)) return { all: true, names: new Set() };
  const names = new Set<string>();
  for (const match of text.matchAll(FIELD_ATTRIBUTE)) names.add(match[1]!.replace(/^-+/, ''));
  const bare = text.replace(HTML_TAG, ' ');
  const item = /^\s*(?:[-*+]|\d+[.)]|\|)\s*(.*)$/.exec(bare) ?? /^\s*(`.*)$/.exec(bare);
  if (item) {
    const cell = item[1]!.split('|')[0]!;
    const first = /[A-Za-z_$][\w$]*(?:-[A-Za-z0-9_$]+)*/.exec(cell);
    if (first) names.add(first[0]);
  }
  return names.size > 0 ? { all: false, names } : undefined;
}

/**
 * Lines kept per name and page: enough to quote and to tell prose from examples, while a word on
 * every line of a long page costs no more than three entries.
 */
const LINES_PER_PAGE = 3;

/**
 * Records a name's line on the page being read: a line once (with its best role), at most
 * LINES_PER_PAGE lines, a full page still taking a line that documents the name better than one
 * it holds.
 */
function keep(
  map: Map<string, PageLine[]>,
  name: string,
  page: number,
  line: number,
  role: PageLineRole,
): void {
  const list = map.get(name);
  if (!list) {
    map.set(name, [{ page, line, role }]);
    return;
  }
  const last = list[list.length - 1]!;
  if (last.line === line) {
    if (ROLE_RANK[role] < ROLE_RANK[last.role]) last.role = role;
    return;
  }
  if (list.length < LINES_PER_PAGE) {
    list.push({ page, line, role });
    return;
  }
  const worst = list.reduce((a, b) => (ROLE_RANK[b.role] > ROLE_RANK[a.role] ? b : a));
  if (ROLE_RANK[role] < ROLE_RANK[worst.role]) list[list.indexOf(worst)] = { page, line, role };
}

/** Appends one page's lines of each name to the index. */
function append(index: Map<string, PageLine[]>, page: Map<string, PageLine[]>): void {
  for (const [name, lines] of page) {
    const list = index.get(name);
    if (list) list.push(...lines);
    else index.set(name, lines);
  }
}

/** Number of distinct pages among some lines. */
function countPages(lines: readonly PageLine[]): number {
  return new Set(lines.map((at) => at.page)).size;
}
