import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Feature folders talk to each other only through their public entry:
 * a server feature through its service, a web feature through its index.
 */
const featureBoundaries = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: [
            '**/features/*/*.repository*',
            '**/features/*/*.routes*',
            '../*/*.repository*',
            '../*/*.routes*',
          ],
          message: 'Import another feature through its service, not its repository or routes.',
        },
        {
          group: ['**/features/*/components/*', '**/features/*/api/*', '**/features/*/hooks/*'],
          message: 'Import another web feature through its index.ts.',
        },
      ],
    },
  ],
};

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
    files: ['apps/server/src/features/**/*.ts', 'apps/web/src/features/**/*.{ts,tsx}'],
    rules: featureBoundaries,
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
