import js from '@eslint/js';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Feature folders are used by everything else only through their index.ts (a server feature's table files
 * too: they are the database schema, imported for foreign keys and joins), and the lower layers (server
 * http, integrations and db; the web's components/ui) never import a feature. Imports are resolved, so a
 * relative path into another feature's internals is caught like any other.
 */
const ELEMENTS = [
  { type: 'server-feature', pattern: 'apps/server/src/features/*', capture: ['feature'] },
  { type: 'server-lower', pattern: 'apps/server/src/@(http|integrations|db)', capture: ['layer'] },
  { type: 'server-app', pattern: 'apps/server/src' },
  { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
  { type: 'web-ui', pattern: 'apps/web/src/components/ui' },
  { type: 'web-app', pattern: 'apps/web/src' },
];

/**
 * Of another feature, only these files may be imported (imports within a feature are internal, which the
 * dependencies rule does not check). The last policy that matches decides.
 */
const ENTRY_POINTS = [
  ['server-feature', ['index.ts', '*.table.ts']],
  ['web-feature', ['index.ts']],
].flatMap(([type, allowed]) => [
  {
    to: { element: { type } },
    disallow: { to: { element: { fileInternalPath: '**' } } },
    message: 'Import another feature only through its index.ts.',
  },
  { to: { element: { type } }, allow: { to: { element: { fileInternalPath: allowed } } } },
]);

const LOWER_LAYERS = [
  [
    'server-lower',
    'server-feature',
    'http/, integrations/ and db/ are lower layers: they never import a feature.',
  ],
  ['web-ui', 'web-feature', 'components/ui is a lower layer: it never imports a feature.'],
].map(([from, to, message]) => ({
  from: { element: { type: from } },
  disallow: { to: { element: { type: to } } },
  message,
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    // Tests and their support reach into what they test.
    ignores: [
      '**/*.test.{ts,tsx}',
      '**/*.test-support.{ts,tsx}',
      'apps/server/src/test/**',
      'apps/web/src/test/**',
    ],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      // Patterns are relative to the repository, wherever ESLint runs from (a test run in apps/server).
      'boundaries/root-path': import.meta.dirname,
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'allow', policies: [...ENTRY_POINTS, ...LOWER_LAYERS] },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.{ts,tsx}', 'apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock'].map((property) => ({
          object: 'vi',
          property,
          message:
            'A test worker runs many files with the modules it already loaded, so a module mock may not take: give the module a seam to set and reset instead (docs/decisions/008-testing.md).',
        })),
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
