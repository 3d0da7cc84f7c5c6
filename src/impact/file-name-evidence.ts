import type { DiffFile } from './diff-types.js';
import { diffFilePath } from './diff-types.js';
import { add, type PageEvidence } from './name-evidence.js';
import type { PageInput } from './page-vocabulary.js';

/**
 * What a code file named like a page adds: projects often document a module on the page named
 * after it (`lib/session.js`, `Session.md`), but most changes to a module change nothing its page says.
 */
const FILE_NAME_WEIGHT = 0.15;
/** A folder of the file (`lib/dispatcher/`) names the page less surely than the file itself. */
const FOLDER_FACTOR = 0.6;
/** One word of a file name (`client` of `client-h2.js`) less surely still. */
const PART_FACTOR = 0.5;

/** Folders of code that name no subject of the docs. */
const GENERIC_FOLDERS = new Set([
  'src',
  'lib',
  'pkg',
  'internal',
  'app',
  'core',
  'source',
  'sources',
  'main',
]);

/**
 * Evidence for the pages whose file name matches a changed code file's name, one of its folders,
 * or one word of its name, ignoring case and separators (`env-http-proxy-agent.js` and
 * `EnvHttpProxyAgent.md`), or the whole name of a changed test file or test folder less its
 * `test` mark (`tests/test_request_form_models/` and `request-form-models.md`): tests are named
 * after the feature they try, as pages are after the feature they teach. An `index` page is named
 * by its folder.
 */
export function fileNameEvidence(
  codeFiles: readonly DiffFile[],
  pages: readonly PageInput[],
  testFiles: readonly DiffFile[] = [],
): PageEvidence {
  const evidence: PageEvidence = new Map();
  const byName = new Map<string, number[]>();
  pages.forEach((page, index) => {
    const name = pageName(page.path);
    if (name !== '') byName.set(name, [...(byName.get(name) ?? []), index]);
  });
  for (const file of codeFiles) {
    const path = diffFilePath(file);
    for (const [name, factor] of fileNames(path))
      for (const page of byName.get(name) ?? [])
        add(evidence, page, { kind: 'file-name', file: path, weight: FILE_NAME_WEIGHT * factor });
  }
  for (const file of testFiles) {
    const path = diffFilePath(file);
    for (const name of testedNames(path))
      for (const page of byName.get(name) ?? [])
        add(evidence, page, { kind: 'file-name', file: path, weight: FILE_NAME_WEIGHT * TEST_FACTOR });
  }
  return evidence;
}

/** A test named like a page names it less surely than the code file would. */
const TEST_FACTOR = 0.8;
/** The mark that makes a file or folder a test, before or after the feature's name. */
const TEST_MARK = /^(?:tests?[_.-])|(?:[_.-](?:tests?|spec|e2e))$/i;
/** Names of test folders that say how, not what: they name no page. */
const TEST_FOLDERS = new Set([
  'test',
  'tests',
  'spec',
  'specs',
  'e2e',
  'unit',
  'integration',
  'fixtures',
  '__tests__',
]);

/** The whole names a test file's folders and file give its feature, its test mark removed. */
function testedNames(path: string): Set<string> {
  const names = new Set<string>();
  const segments = path.split('/');
  segments.push((segments.pop() ?? '').replace(/\.[^.]*$/, '').replace(/\.(?:test|spec)$/i, ''));
  for (const segment of segments) {
    if (TEST_FOLDERS.has(segment.toLowerCase()) || GENERIC_FOLDERS.has(segment.toLowerCase())) continue;
    const name = normalize(segment.replace(TEST_MARK, ''));
    // Numbered example files (`test_tutorial001`) and short stems name no feature.
    if (name.length >= 6 && !/\d{2,}$/.test(name)) names.add(name);
  }
  return names;
}

/** The names a code file goes by, each with how surely it names a page. */
function fileNames(path: string): Map<string, number> {
  const names = new Map<string, number>();
  const segments = path.split('/');
  const stem = (segments.pop() ?? '').replace(/\.[^.]*$/, '');
  const set = (name: string, factor: number) => {
    if (name.length >= 3 && factor > (names.get(name) ?? 0)) names.set(name, factor);
  };
  for (const folder of segments)
    if (!GENERIC_FOLDERS.has(folder.toLowerCase())) set(normalize(folder), FOLDER_FACTOR);
  // Nested folders name a page by both (`provider/kubernetes/gateway/` and `kubernetes-gateway.md`),
  // as surely as a folder does.
  const named = [...segments, stem].filter((segment) => !GENERIC_FOLDERS.has(segment.toLowerCase()));
  for (let index = 1; index < named.length; index += 1)
    set(normalize(named[index - 1]! + named[index]!), FOLDER_FACTOR);
  for (const part of stem.split(/[-_.]/)) set(normalize(part), PART_FACTOR);
  set(normalize(stem), 1);
  return names;
}

function pageName(path: string): string {
  const segments = path.replace(/\.(mdx|md)$/i, '').split('/');
  let name = segments.pop() ?? '';
  if (name.toLowerCase() === 'index') name = segments.pop() ?? '';
  return normalize(name);
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
