/**
 * A git diff of one file, as `git diff` prints it: `lines` start with ' ', '-' or '+', as in a
 * hunk, and the hunk starts at line `start` on both sides.
 */
export function filePatch(path: string, lines: string[], start = 10): string {
  const old = lines.filter((line) => !line.startsWith('+')).length;
  const added = lines.filter((line) => !line.startsWith('-')).length;
  return [
    `diff --git a/${path} b/${path}`,
    'index 1111111..2222222 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${start},${old} +${start},${added} @@`,
    ...lines,
  ].join('\n');
}
