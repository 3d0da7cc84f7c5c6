import type { DiffHunk, DiffLine } from './diff-types.js';

/**
 * A stretch of a line of code that holds no names the code defines or uses: `prose` (the text of
 * a JSX element or an HTML template) and `comment` (the inside of a block comment), where only
 * names that cannot be English count; or `markup` (an HTML element's tag, its attribute names and
 * literal values: `<div class="mt-4 flex">`), where nothing counts. A comment quotes code in
 * backticks and quotes; an element's text has apostrophes (`Don't`) that quote nothing.
 */
export interface TextSpan {
  start: number;
  end: number;
  kind: 'prose' | 'comment' | 'markup';
}

/** Files whose code holds JSX. */
const JSX_FILE = /\.[jt]sx$/i;
/** Files that are an HTML template around scripts. */
const TEMPLATE_FILE = /\.(?:vue|svelte|astro|html?)$/i;
/** Files whose language writes block comments as `/* … *\/`. */
const BLOCK_COMMENT_FILE =
  /\.(?:[cm]?[jt]sx?|go|java|kts?|scala|c|h|cc|cpp|hpp|cs|rs|swift|php|css|scss|less|dart|vue|svelte|astro)$/i;

/**
 * The spans of each line of a hunk that are prose or markup (see TextSpan), for the lines that
 * have any. Each side of the hunk (the old file's lines, the new file's) is read in order, as
 * the file is: what a line is depends on the lines before it (the text of an element goes on
 * below its tag, a block comment below its opening). A hunk starts anywhere, so where it starts is
 * guessed from its first lines; a guess that proves wrong is dropped at the next line of code.
 */
export function hunkSpans(path: string, hunk: DiffHunk): Map<DiffLine, TextSpan[]> {
  const spans = new Map<DiffLine, TextSpan[]>();
  const language = JSX_FILE.test(path)
    ? 'jsx'
    : TEMPLATE_FILE.test(path)
      ? 'template'
      : BLOCK_COMMENT_FILE.test(path)
        ? 'code'
        : undefined;
  if (language === undefined) return spans;
  for (const side of ['removed', 'added'] as const) {
    const lines = hunk.lines.filter((line) => line.kind === 'context' || line.kind === side);
    const scanner = new Scanner(language, lines);
    lines.forEach((line, index) => {
      const found = scanner.line(index);
      // A context line is read on both sides; the new side's reading is kept.
      if (found.length > 0 && (line.kind === side || side === 'added')) spans.set(line, found);
    });
  }
  return spans;
}

type Language = 'jsx' | 'template' | 'code';

/**
 * What the scanner is in: code (with the braces opened in it, and what ends it: a `}` closing an
 * expression, `</script>`, an Astro fence), a template literal, an element's children (`guessed`
 * when no tag seen in the hunk opened them) or a tag.
 */
type Frame =
  | { kind: 'code'; braces: number; ends?: 'script' | 'fence'; markup?: boolean }
  | { kind: 'template'; markup?: boolean }
  | { kind: 'children'; guessed: boolean; raw?: 'style' }
  | { kind: 'tag'; intrinsic: boolean; closing: boolean; name: string; attribute: string; quote?: string };

/** Elements that have no children in HTML (in JSX every element closes itself). */
const VOID_ELEMENTS = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));
/** Attributes that style an element, whatever element: their values are class names and CSS. */
const STYLE_ATTRIBUTE = /^(?:class|className|class:list|style|tw)$/;
/** An attribute whose value is code in a template (`:href`, `@click`, `v-if`, `on:click`). */
const BOUND_ATTRIBUTE = /^(?::|@|#|v-)|:/;
/** A line of attributes alone (`class="x"`, `aria-hidden="true"`, `width="4rem"` and the like). */
const ATTRIBUTE_LINE = /^[a-z][\w:-]*=["'][^"']*["'](?:\s+[a-z][\w:-]*(?:=["'][^"']*["'])?)*\s*(?:\/?>)?$/;
/** Words that open a line of code (and, lower-case, seldom a line of an element's text). */
const CODE_OPENER =
  /^(?:import|export|const|let|var|function|return|if|else|for|while|do|try|catch|finally|switch|case|await|throw|type|interface|class|async|yield)\b/;

class Scanner {
  private stack: Frame[];
  /** The end of the block comment the scanner is in. */
  private comment: '*/' | '-->' | undefined;

  /** For each line, the first line at or after it that closes a block comment (`*\/`, `-->`). */
  private readonly closing: Record<'*/' | '-->', number[]>;

  constructor(
    private readonly language: Language,
    private readonly lines: readonly DiffLine[],
  ) {
    this.stack = [this.firstFrame()];
    this.closing = { '*/': closingLines(lines, '*/'), '-->': closingLines(lines, '-->') };
  }

  /**
   * Whether a block comment opened at `at` of line `index` closes in the hunk. One that does not
   * is left to the line it opens on: a misread `/*` (in a string or a pattern the scanner does not
   * know) must not turn the rest of the hunk into a comment.
   */
  private opensComment(index: number, text: string, at: number, end: '*/' | '-->'): boolean {
    if (text.indexOf(end, at + 2) !== -1) return true;
    return (this.closing[end][index + 1] ?? Infinity) < this.lines.length;
  }

  /** Where the hunk starts: in code, unless its first line is markup or text. */
  private firstFrame(): Frame {
    if (this.language !== 'template') return { kind: 'code', braces: 0 };
    const first = this.lines.map((line) => line.text.trim()).find((text) => text !== '') ?? '';
    return first.startsWith('<') || textLike(first)
      ? { kind: 'children', guessed: false }
      : { kind: 'code', braces: 0, ends: 'script' };
  }

  /** The line being read. */
  private index = 0;

  private get top(): Frame {
    return this.stack[this.stack.length - 1]!;
  }

  /**
   * Leaves the current frame. Past the hunk's first frame, what is outside it is not known: the
   * file's own level, code in a script, an HTML template's markup.
   */
  private pop(): void {
    if (this.stack.length > 1) this.stack.pop();
    else
      this.stack = [
        this.language === 'template' ? { kind: 'children', guessed: false } : { kind: 'code', braces: 0 },
      ];
  }

  /** The spans of the line at `index` of this side; the scanner moves past it. */
  line(index: number): TextSpan[] {
    const text = this.lines[index]!.text;
    this.index = index;
    this.startLine(text, index);
    const spans: TextSpan[] = [];
    const mark = (start: number, end: number, kind: TextSpan['kind']) => {
      if (end <= start) return;
      const last = spans[spans.length - 1];
      if (last && last.kind === kind && last.end >= start) last.end = Math.max(last.end, end);
      else spans.push({ start, end, kind });
    };
    let at = 0;
    while (at < text.length) {
      if (this.comment !== undefined) {
        const end = text.indexOf(this.comment, at);
        const stop = end === -1 ? text.length : end + this.comment.length;
        mark(at, stop, 'comment');
        if (end !== -1) this.comment = undefined;
        at = stop;
        continue;
      }
      const frame = this.top;
      const next =
        frame.kind === 'code'
          ? this.code(frame, text, at, mark)
          : frame.kind === 'template'
            ? this.template(frame, text, at)
            : frame.kind === 'children'
              ? this.children(frame, text, at, mark)
              : this.tag(frame, text, at, mark);
      // Every step moves on, so a line is read in one pass whatever it holds.
      const end = Math.min(text.length, Math.max(next, at + 1));
      if ((frame.kind === 'code' || frame.kind === 'template') && frame.markup) mark(at, end, 'markup');
      at = end;
    }
    return spans;
  }

  /**
   * Before a line is read: an Astro fence opens or closes its code; a guess of element text that
   * meets a line of code is dropped; a hunk that starts in the text of an element (a line of words
   * followed by a tag) is put there.
   */
  private startLine(text: string, index: number): void {
    const trimmed = text.trim();
    if (this.comment !== undefined || trimmed === '') return;
    if (this.language === 'template' && trimmed === '---' && this.stack.length <= 2) {
      const top = this.top;
      if (top.kind === 'code' && top.ends === 'fence') this.pop();
      else this.stack.push({ kind: 'code', braces: 0, ends: 'fence' });
      return;
    }
    const top = this.top;
    if (top.kind === 'children' && !top.raw && codeLike(trimmed)) {
      this.stack = [{ kind: 'code', braces: 0, ...(this.language === 'template' ? { ends: 'script' } : {}) }];
      return;
    }
    if (this.language !== 'jsx' || this.stack.length !== 1 || top.kind !== 'code' || top.braces !== 0) return;
    if (/\s/.test(trimmed) && textLike(trimmed) && /^[<{]/.test(this.nextText(index)))
      this.stack.push({ kind: 'children', guessed: true });
    // `width="4rem"` opening a hunk: an attribute of a tag opened above it (code would write
    // `width = "4rem";`). Its tag is not known; attributes written so are an element's.
    else if (ATTRIBUTE_LINE.test(trimmed))
      this.stack.push({ kind: 'tag', intrinsic: true, closing: false, name: '', attribute: '' });
  }

  /** The next line of this side that is not blank, trimmed ('' at the end). */
  private nextText(index: number): string {
    for (let next = index + 1; next < this.lines.length; next += 1) {
      const text = this.lines[next]!.text.trim();
      if (text !== '') return text;
    }
    return '';
  }

  private code(
    frame: Extract<Frame, { kind: 'code' }>,
    text: string,
    at: number,
    mark: (start: number, end: number, kind: TextSpan['kind']) => void,
  ): number {
    const char = text[at]!;
    if (text.startsWith('//', at)) return text.length;
    if (text.startsWith('/*', at)) {
      if (!this.opensComment(this.index, text, at, '*/')) return text.length;
      this.comment = '*/';
      mark(at, at + 2, 'comment');
      return at + 2;
    }
    if (char === '/') return regexEnd(text, at) + 1;
    if (char === '"' || char === "'") return stringEnd(text, at, char) + 1;
    if (char === '`') {
      this.stack.push({ kind: 'template', ...(frame.markup ? { markup: true } : {}) });
      return at + 1;
    }
    if (char === '{') {
      frame.braces += 1;
      return at + 1;
    }
    if (char === '}') {
      if (frame.braces > 0) frame.braces -= 1;
      else if (frame.ends === undefined) this.pop();
      return at + 1;
    }
    if (char !== '<') return at + 1;
    if (frame.ends === 'script' && matchAt(SCRIPT_END, text, at) !== undefined) {
      this.pop();
      if (this.top.kind !== 'children') this.stack = [{ kind: 'children', guessed: false }];
      return skipTag(text, at, mark);
    }
    if (this.language === 'jsx' && tagStarts(text, at)) return this.openTag(text, at, mark);
    return at + 1;
  }

  private template(frame: Extract<Frame, { kind: 'template' }>, text: string, at: number): number {
    const char = text[at]!;
    if (char === '\\') return at + 2;
    if (char === '`') this.pop();
    else if (text.startsWith('${', at)) {
      this.stack.push({ kind: 'code', braces: 0, ...(frame.markup ? { markup: true } : {}) });
      return at + 2;
    }
    return at + 1;
  }

  private children(
    frame: Extract<Frame, { kind: 'children' }>,
    text: string,
    at: number,
    mark: (start: number, end: number, kind: TextSpan['kind']) => void,
  ): number {
    if (frame.raw === 'style') {
      const end = text.toLowerCase().indexOf('</style', at);
      if (end === -1) return text.length;
      this.pop();
      return skipTag(text, end, mark);
    }
    if (text.startsWith('<!--', at) && this.opensComment(this.index, text, at, '-->')) {
      this.comment = '-->';
      mark(at, at + 4, 'comment');
      return at + 4;
    }
    const char = text[at]!;
    if (char === '{') {
      this.stack.push({ kind: 'code', braces: 0 });
      return at + 1;
    }
    if (char === '<' && matchAt(TAG_OPENING, text, at) !== undefined) return this.openTag(text, at, mark);
    let end = at + 1;
    while (end < text.length && text[end] !== '{' && text[end] !== '<') end += 1;
    mark(at, end, 'prose');
    return end;
  }

  /** Reads `<name` or `</name` at `at` and enters the tag. */
  private openTag(
    text: string,
    at: number,
    mark: (start: number, end: number, kind: TextSpan['kind']) => void,
  ): number {
    const match = matchAt(TAG_NAME, text, at)!;
    const name = match[2] ?? '';
    const intrinsic = /^[a-z][\w:-]*$/.test(name);
    if (intrinsic) mark(at, at + match[0].length, 'markup');
    this.stack.push({ kind: 'tag', intrinsic, closing: match[1] === '/', name, attribute: '' });
    return at + match[0].length;
  }

  private tag(
    frame: Extract<Frame, { kind: 'tag' }>,
    text: string,
    at: number,
    mark: (start: number, end: number, kind: TextSpan['kind']) => void,
  ): number {
    const styling = STYLE_ATTRIBUTE.test(frame.attribute);
    const literal = styling || (frame.intrinsic && !BOUND_ATTRIBUTE.test(frame.attribute));
    if (frame.quote !== undefined) {
      const end = text.indexOf(frame.quote, at);
      const stop = end === -1 ? text.length : end + 1;
      if (literal) mark(at, stop, 'markup');
      if (end !== -1) frame.quote = undefined;
      return stop;
    }
    const char = text[at]!;
    if (char === '{') {
      // A class list or a style, even computed, is styling: `class={`mt-4 ${wide}`}`.
      this.stack.push({ kind: 'code', braces: 0, ...(styling ? { markup: true } : {}) });
      if (styling) mark(at, at + 1, 'markup');
      return at + 1;
    }
    if (char === '"' || char === "'") {
      frame.quote = char;
      if (literal) mark(at, at + 1, 'markup');
      return at + 1;
    }
    if (text.startsWith('/>', at)) {
      this.pop();
      return at + 2;
    }
    if (char === '>') {
      this.pop();
      this.closeTag(frame);
      return at + 1;
    }
    const attribute = matchAt(ATTRIBUTE, text, at)?.[0];
    if (attribute === undefined) return at + 1;
    frame.attribute = attribute;
    if (frame.intrinsic || STYLE_ATTRIBUTE.test(attribute)) mark(at, at + attribute.length, 'markup');
    return at + attribute.length;
  }

  /** After a tag's `>`: an opening tag opens its children, a closing tag ends them. */
  private closeTag(frame: Extract<Frame, { kind: 'tag' }>): void {
    if (frame.closing) {
      const top = this.top;
      if (top.kind === 'children' && !(top.guessed && this.stack.length === 1)) this.pop();
      // A closing tag with no opening one in the hunk: the hunk started inside an element, and
      // what follows is its parent's text.
      else if (top.kind === 'code' && this.stack.length === 1 && top.braces === 0)
        this.stack.push({ kind: 'children', guessed: true });
      return;
    }
    const lower = frame.name.toLowerCase();
    if (this.language === 'template' && lower === 'script')
      this.stack.push({ kind: 'code', braces: 0, ends: 'script' });
    else if (this.language === 'template' && lower === 'style')
      this.stack.push({ kind: 'children', guessed: false, raw: 'style' });
    else if (this.language === 'jsx' || !VOID_ELEMENTS.has(lower))
      this.stack.push({ kind: 'children', guessed: false });
  }
}

/**
 * Whether a `<` opens a JSX tag: a name, `/` or `>` follows it, and what comes before it is no
 * value it could compare or a type it could take arguments (`a < b`, `Array<string>`).
 */
function tagStarts(text: string, at: number): boolean {
  if (matchAt(TAG_OPENING, text, at) === undefined) return false;
  const before = text.slice(0, at).trimEnd();
  if (before === '') return true;
  return /[(,=:?&|{}[!;>]$/.test(before) || /\b(?:return|yield|default)$/.test(before);
}

/** A line of words as an element's text is written: no code marks, no code word opening it. */
function textLike(line: string): boolean {
  const words = line.replace(/\{[^{}]*\}/g, ' ').trim();
  return (
    /^[\p{L}\d"'“‘(]/u.test(words) &&
    /\p{L}{2}/u.test(words) &&
    !/[=;<>[\]{}]|[\w$]\(|=>/.test(words) &&
    !CODE_OPENER.test(words)
  );
}

/**
 * A line no element's text would be: a statement, a closing bracket, a code word with code marks
 * after it (`return (`; a wrapped sentence may open with "for your users").
 */
function codeLike(line: string): boolean {
  return /;\s*$/.test(line) || /^[)\]}]/.test(line) || (CODE_OPENER.test(line) && /[=;(){}[\]<>]/.test(line));
}

const TAG_OPENING = /<\/?[A-Za-z>]/y;
const TAG_NAME = /<(\/?)([A-Za-z][\w.:-]*)?/y;
const ATTRIBUTE = /[^\s=>/{"']+/y;
const SCRIPT_END = /<\/script\b/iy;

/** A sticky pattern's match at `at` (no copy of the rest of the line is made). */
function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text) ?? undefined;
}

/**
 * Past the closing tag of a script or a style block at `at` (its frame already left), as markup:
 * it closes no element's children.
 */
function skipTag(
  text: string,
  at: number,
  mark: (start: number, end: number, kind: TextSpan['kind']) => void,
): number {
  const close = text.indexOf('>', at);
  const end = close === -1 ? text.length : close + 1;
  mark(at, end, 'markup');
  return end;
}

/** For each line, the first line at or after it whose text holds `end` (`lines.length` if none). */
function closingLines(lines: readonly DiffLine[], end: string): number[] {
  const next = new Array<number>(lines.length + 1).fill(lines.length);
  for (let index = lines.length - 1; index >= 0; index -= 1)
    next[index] = lines[index]!.text.includes(end) ? index : next[index + 1]!;
  return next;
}

/**
 * The end of a regular expression literal opening at `at` (`/\/*$/`), so that its marks open no
 * comment or string; `at` itself when the `/` divides (what precedes it is a value).
 */
function regexEnd(text: string, at: number): number {
  const before = text.slice(0, at).trimEnd();
  if (before !== '' && !/[(,=:[!&|?{};]$/.test(before) && !/\b(?:return|typeof)$/.test(before)) return at;
  let inClass = false;
  for (let index = at + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) return index;
  }
  return at;
}

/** Index of the closing quote (or the line's end), skipping backslash escapes. */
function stringEnd(line: string, start: number, quote: string): number {
  for (let index = start + 1; index < line.length; index += 1) {
    if (line[index] === '\\') index += 1;
    else if (line[index] === quote) return index;
  }
  return line.length;
}
