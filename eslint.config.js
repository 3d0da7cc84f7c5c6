// @ts-check
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The folders of src/ and what each may import besides itself, lowest first: a folder never
 * imports one further down the list. docs/architecture.mdx draws the same table (a test holds the
 * two together). src/cli.ts, the program's entry, is in no folder and nothing imports it.
 * @type {Record<string, string[]>}
 */
// prettier-ignore
export const LAYERS = Object.fromEntries(Object.entries({
  core: '',
  protocol: 'core',
  http: 'core',
  metrics: 'core protocol',
  'write-policy': 'core',
  models: 'core',
  'github-api': 'core',
  docs: 'core write-policy',
  github: 'core protocol write-policy github-api',
  store: 'core protocol write-policy',
  forge: 'core write-policy github-api',
  checks: 'core write-policy docs forge',
  impact: 'core docs',
  agent: 'core write-policy models docs forge checks impact',
  client: 'core protocol',
  config: 'core write-policy models github-api',
  engine: 'core protocol write-policy docs github store forge checks agent',
  assistant: 'core protocol models docs store forge',
  server: 'core protocol http metrics store engine assistant',
  bot: 'core protocol http metrics write-policy config docs github-api github store forge checks impact engine',
  action: 'core protocol write-policy models config docs github-api github store forge checks impact agent engine client',
  service: 'core protocol http metrics write-policy models config docs github-api github store forge checks impact agent engine assistant server bot',
  cli: 'core protocol http metrics write-policy models config docs github-api github store forge checks impact agent engine assistant server bot client service',
}).map(([folder, imports]) => [folder, imports.split(' ').filter(Boolean)]));

/**
 * The patterns that leave the error model: a plain Error made anywhere (thrown, rejected, handed to
 * an AbortController) and a class of errors of its own beside DocwrightError.
 */
export const ERROR_MODEL_RULES = [
  {
    selector: "NewExpression[callee.name='Error'], CallExpression[callee.name='Error']",
    message:
      'Raise a DocwrightError (src/core/errors.ts) with the code that fits; asError() wraps what a library threw.',
  },
  {
    selector: "ClassDeclaration[superClass.name='Error'], ClassExpression[superClass.name='Error']",
    message:
      'Extend DocwrightError (src/core/errors.ts), so the error carries a code and whether it may heal.',
  },
];

export default tseslint.config(
  { ignores: ['lib/', 'dist/', 'node_modules/', 'coverage/', '.docwright/', 'test/fixtures/sites/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration once, in loadConfig(env).' },
      ],
      // better-sqlite3 13 crashes Node 20 and 12 aborts Node 24: src/core/sqlite.ts loads the right one.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'better-sqlite3',
              message:
                'Import SQLite from src/core/sqlite.ts: it loads the better-sqlite3 that works on this Node.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/config/config.ts', 'src/cli.ts', 'test/**', 'bench/**', 'vitest.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The direction of dependencies between the folders of src/ (docs/architecture.mdx draws it):
    // each folder may import the folders LAYERS lists for it and nothing else, type imports
    // included, so no change can close a cycle between them again.
    files: ['src/**/*.ts'],
    // The plugin's own types do not declare the flat-config plugin shape ESLint 9 checks for.
    plugins: {
      boundaries: /** @type {import('eslint').ESLint.Plugin} */ (/** @type {unknown} */ (boundaries)),
    },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': Object.keys(LAYERS).map((folder) => ({
        type: folder,
        pattern: `src/${folder}`,
      })),
    },
    rules: {
      // src/cli.ts, the program's entry, is in no folder: nothing may import it.
      'boundaries/no-unknown-dependencies': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: Object.entries(LAYERS).map(([folder, allowed]) => ({
            from: { element: { type: folder } },
            allow: { to: { element: { types: { anyOf: [folder, ...allowed] } } } },
          })),
        },
      ],
    },
  },
  {
    // One error model: what src/ raises is a DocwrightError (or a subclass of it), so every caller
    // can read its code and whether it may heal. src/core/errors.ts alone makes the base class and
    // turns what a library threw into an Error.
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ERROR_MODEL_RULES] },
  },
  { files: ['src/core/errors.ts'], rules: { 'no-restricted-syntax': 'off' } },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
