import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../src/impact/index.js';

const gitDiff = [
  'diff --git a/lib/client.js b/lib/client.js',
  'index 1111111..2222222 100644',
  '--- a/lib/client.js',
  '+++ b/lib/client.js',
  '@@ -10,4 +10,4 @@ function connect (opts) {',
  '   const host = opts.host',
  '-  const retries = opts.maxRetries ?? 3',
  '+  const retries = opts.retryLimit ?? 3',
  '-- a removed line that looks like a header',
  '+++ an added line that looks like a header',
  ' }',
  'diff --git a/old name.js b/new name.js',
  'similarity index 90%',
  'rename from old name.js',
  'rename to new name.js',
  'index 3333333..4444444 100644',
  '--- a/old name.js',
  '+++ b/new name.js',
  '@@ -1 +1 @@',
  '-module.exports = 1',
  '\\ No newline at end of file',
  '+module.exports = 2',
  '\\ No newline at end of file',
  'diff --git a/logo.png b/logo.png',
  'new file mode 100644',
  'index 0000000..5555555',
  'Binary files /dev/null and b/logo.png differ',
  'diff --git a/lib/gone.js b/lib/gone.js',
  'deleted file mode 100644',
  'index 6666666..0000000',
  '--- a/lib/gone.js',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-const gone = true',
  '-module.exports = gone',
  'diff --git a/lib/new.js b/lib/new.js',
  'new file mode 100644',
  'index 0000000..7777777',
  '--- /dev/null',
  '+++ b/lib/new.js',
  '@@ -0,0 +1 @@',
  '+export const fresh = 1',
  'diff --git "a/docs/caf\\303\\251.md" "b/docs/caf\\303\\251.md"',
  'index 8888888..9999999 100644',
  '--- "a/docs/caf\\303\\251.md"',
  '+++ "b/docs/caf\\303\\251.md"',
  '@@ -1 +1 @@',
  '-old',
  '+new',
].join('\n');

describe('parseUnifiedDiff', () => {
  const { files, truncated } = parseUnifiedDiff(gitDiff);

  it('reads every file of git diff output with its status', () => {
    expect(truncated).toBe(false);
    expect(files.map((file) => [file.status, file.oldPath, file.newPath])).toEqual([
      ['modified', 'lib/client.js', 'lib/client.js'],
      ['renamed', 'old name.js', 'new name.js'],
      ['added', undefined, 'logo.png'],
      ['deleted', 'lib/gone.js', undefined],
      ['added', undefined, 'lib/new.js'],
      ['modified', 'docs/café.md', 'docs/café.md'],
    ]);
    expect(files[2]).toMatchObject({ binary: true, hunks: [] });
  });

  it('counts hunk lines from the header, so lines starting with -- or ++ stay in the hunk', () => {
    const [hunk] = files[0]!.hunks;
    expect(hunk).toMatchObject({ oldStart: 10, oldLines: 4, newStart: 10, newLines: 4 });
    expect(hunk!.section).toBe('function connect (opts) {');
    expect(hunk!.lines).toEqual([
      { kind: 'context', text: '  const host = opts.host', oldLine: 10, newLine: 10 },
      { kind: 'removed', text: '  const retries = opts.maxRetries ?? 3', oldLine: 11 },
      { kind: 'added', text: '  const retries = opts.retryLimit ?? 3', newLine: 11 },
      { kind: 'removed', text: '- a removed line that looks like a header', oldLine: 12 },
      { kind: 'added', text: '++ an added line that looks like a header', newLine: 12 },
      { kind: 'context', text: '}', oldLine: 13, newLine: 13 },
    ]);
  });

  it('skips "No newline at end of file" markers', () => {
    expect(files[1]!.hunks[0]!.lines.map((line) => line.kind)).toEqual(['removed', 'added']);
  });

  it('reads CRLF diffs like LF ones', () => {
    const crlf = parseUnifiedDiff(gitDiff.replace(/\n/g, '\r\n'));
    expect(crlf).toEqual(parseUnifiedDiff(gitDiff));
  });

  it('reads plain diff -u output, timestamps and all', () => {
    const plain = [
      '--- config.yaml\t2024-01-01 10:00:00.000000000 +0100',
      '+++ config.yaml\t2024-01-02 10:00:00.000000000 +0100',
      '@@ -1,2 +1,2 @@',
      ' name: app',
      '-port: 8080',
      '+port: 9090',
    ].join('\n');
    const [file] = parseUnifiedDiff(plain).files;
    expect(file).toMatchObject({ oldPath: 'config.yaml', newPath: 'config.yaml', status: 'modified' });
    expect(file!.hunks[0]!.lines.filter((line) => line.kind !== 'context')).toHaveLength(2);
  });

  it('reads diff -ru output with a/ b/ prefixes and several files', () => {
    const recursive = [
      'diff -ru a/src/one.py b/src/one.py',
      '--- a/src/one.py',
      '+++ b/src/one.py',
      '@@ -1 +1 @@',
      '-TIMEOUT = 30',
      '+TIMEOUT = 60',
      'Only in b/src: two.py',
      'diff -ru a/src/three.py b/src/three.py',
      '--- a/src/three.py',
      '+++ b/src/three.py',
      '@@ -3 +3 @@',
      '-x = 1',
      '+x = 2',
    ].join('\n');
    expect(parseUnifiedDiff(recursive).files.map((file) => file.newPath)).toEqual([
      'src/one.py',
      'src/three.py',
    ]);
  });

  it('never throws on damaged input and keeps what it could read', () => {
    const damaged = '--- a/x.js\n+++ b/x.js\n@@ -1,5 +1,5 @@\n-a\n+b\ngarbage\n@@ nonsense @@\n';
    expect(() => parseUnifiedDiff(damaged)).not.toThrow();
    expect(parseUnifiedDiff(damaged).files[0]!.hunks[0]!.lines).toHaveLength(2);
    expect(parseUnifiedDiff('').files).toEqual([]);
    expect(parseUnifiedDiff('just some text\nwith lines').files).toEqual([]);
  });

  it('stops at the line cap and says so', () => {
    const long = ['--- a/big.js', '+++ b/big.js', '@@ -0,0 +1,1000 @@']
      .concat(Array.from({ length: 1000 }, (_, index) => `+line ${index}`))
      .join('\n');
    const parsed = parseUnifiedDiff(long, { maxLines: 100 });
    expect(parsed.truncated).toBe(true);
    expect(parsed.files[0]!.hunks[0]!.lines).toHaveLength(100);
  });
});
