import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * A runnable example of the docs: a fenced `sh` block right after a marker that says what running it
 * must show. In .mdx the marker is an MDX comment, invisible on the site:
 *   {/* example: status=201 fields=id,status capture=JOB_ID:id *\/}
 * In the README (rendered by GitHub, which shows MDX comments) it is an HTML comment:
 *   <!-- example: status=201 fields=id,status -->
 */
export interface DocExample {
  /** `file:line` of the marker, for failure messages. */
  where: string;
  code: string;
  expect: ExampleExpectations;
}

export interface ExampleExpectations {
  /** The HTTP status of the block's last curl call. */
  status?: number;
  /** The exit code of the block (default 0). */
  exit: number;
  /** Dotted paths that must be present in the JSON the block prints. */
  fields: string[];
  /** Text the output must contain. */
  contains?: string;
  /** A regular expression the trimmed output must match (multiline). */
  stdout?: RegExp;
  /** `NAME:path`: the value at `path` of the printed JSON becomes $NAME for later examples. */
  capture?: { name: string; path: string };
}

const MARKER = /^(?:\{\/\*\s*example:(.*?)\*\/\}|<!--\s*example:(.*?)-->)\s*$/;

/** The marked examples of one file, in order; a marker without a shell block after it is an error. */
export function parseExamples(file: string, text: string): DocExample[] {
  const lines = text.split('\n');
  const examples: DocExample[] = [];
  lines.forEach((line, index) => {
    const marker = MARKER.exec(line.trim());
    if (!marker) return;
    const where = `${file}:${index + 1}`;
    let start = index + 1;
    while (lines[start]?.trim() === '') start += 1;
    if (!/^```(sh|bash)\s*$/.test(lines[start] ?? '')) {
      throw new Error(`${where}: an example marker must be followed by a \`\`\`sh block`);
    }
    const end = lines.findIndex((candidate, at) => at > start && candidate.startsWith('```'));
    if (end === -1) throw new Error(`${where}: the example's code block is not closed`);
    const expect = parseExpectations(where, marker[1] ?? marker[2] ?? '');
    examples.push({ where, code: lines.slice(start + 1, end).join('\n'), expect });
  });
  return examples;
}

function parseExpectations(where: string, spec: string): ExampleExpectations {
  const expectations: ExampleExpectations = { exit: 0, fields: [] };
  for (const word of spec.trim().split(/\s+/).filter(Boolean)) {
    const equals = word.indexOf('=');
    const [key, value] = [word.slice(0, equals), word.slice(equals + 1)];
    if (key === 'status') expectations.status = Number(value);
    else if (key === 'exit') expectations.exit = Number(value);
    else if (key === 'fields') expectations.fields = value.split(',');
    else if (key === 'contains') expectations.contains = value;
    else if (key === 'stdout') expectations.stdout = new RegExp(value, 'm');
    else if (key === 'capture' && value.includes(':')) {
      const [name, at] = [value.slice(0, value.indexOf(':')), value.slice(value.indexOf(':') + 1)];
      expectations.capture = { name, path: at };
    } else throw new Error(`${where}: unknown example expectation "${word}"`);
  }
  return expectations;
}

/** The value at a dotted path (`source.ref`) of a parsed JSON value, or undefined. */
export function valueAt(value: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (current, key) =>
        current !== null && typeof current === 'object'
          ? (current as Record<string, unknown>)[key]
          : undefined,
      value,
    );
}

/** The README and the docs pages in navigation order: the order a reader follows, and captures flow. */
export async function documentedFiles(root: string): Promise<string[]> {
  const config = JSON.parse(await fs.readFile(path.join(root, 'docs/docs.json'), 'utf8')) as {
    navigation: { groups: { pages: string[] }[] };
  };
  const pages = config.navigation.groups.flatMap((group) => group.pages);
  return ['README.md', ...pages.map((page) => `docs/${page}.mdx`)];
}
