/**
 * A small glob matcher for `list_files`: `*` (within a folder), `**` (any folders), `?`, and
 * `{a,b}` alternatives. What a model writes when it asks for files; nothing more exotic.
 */
function globToRegExp(glob: string): RegExp {
  let pattern = '';
  let braces = 0;
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index]!;
    if (character === '*' && glob[index + 1] === '*') {
      // `**/` matches zero or more folders; a trailing `**` matches everything below.
      const slash = glob[index + 2] === '/';
      pattern += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (character === '*') {
      pattern += '[^/]*';
    } else if (character === '?') {
      pattern += '[^/]';
    } else if (character === '{') {
      braces += 1;
      pattern += '(?:';
    } else if (character === '}' && braces > 0) {
      braces -= 1;
      pattern += ')';
    } else if (character === ',' && braces > 0) {
      pattern += '|';
    } else {
      pattern += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${pattern}${')'.repeat(braces)}$`);
}

/** Whether a path matches a glob; a glob with no `/` also matches file names in any folder. */
export function matchesGlob(path: string, glob: string): boolean {
  const trimmed = glob.trim().replace(/^\.\//, '').replace(/^\/+/, '');
  if (trimmed === '') return true;
  const pattern = globToRegExp(trimmed);
  return pattern.test(path) || (!trimmed.includes('/') && pattern.test(path.split('/').pop() ?? ''));
}
