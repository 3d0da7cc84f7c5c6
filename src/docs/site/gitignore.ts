import ignoreModule from 'ignore';

/** ignore 5 declares its default export as a namespace under NodeNext; at run time it is the factory. */
const ignore = ignoreModule as unknown as () => {
  add(patterns: string | readonly string[]): { ignores(path: string): boolean };
};

/** Whether a path (relative, POSIX) matches gitignore-style patterns (`.mintignore`, MkDocs `exclude_docs`). */
export function gitignoreMatcher(patterns: string | readonly string[]): (path: string) => boolean {
  const matcher = ignore().add(patterns);
  return (path) => matcher.ignores(path);
}
