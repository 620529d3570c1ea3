import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const SERVER = './apps/server/src';
const WEB = './apps/web/src';
const featuresOf = (root) =>
  readdirSync(new URL(`${root}/features`, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

/**
 * Feature folders are used by everything else only through their index.ts (a server feature's table files
 * too: they are the database schema, imported for foreign keys and joins). Imports are resolved, so a
 * relative path into another feature's internals is caught like any other.
 */
function zones(root, { tables }) {
  return featuresOf(root).flatMap((feature) => {
    const others = featuresOf(root).filter((f) => f !== feature);
    const message = `Import the '${feature}' feature through its index.ts.`;
    const from = `${root}/features/${feature}`;
    // Every other folder of the app, and the files at its root (app.ts, main.ts, ...).
    const outside = [
      ...readdirSync(new URL(root, import.meta.url), { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== 'features')
        .map((d) => `${root}/${d.name}`),
      `${root}/*.{ts,tsx}`,
    ];
    const files = readdirSync(new URL(from, import.meta.url));
    const except = [
      './index.ts',
      ...(tables ? files.filter((f) => f.endsWith('.table.ts')).map((f) => `./${f}`) : []),
    ];
    return [...others.map((o) => `${root}/features/${o}`), ...outside].map((target) => ({
      target,
      from,
      except,
      message,
    }));
  });
}

/** Lower layers never import a feature. */
const LAYERS = [
  ...['http', 'integrations', 'db'].map((layer) => ({
    target: `${SERVER}/${layer}`,
    from: `${SERVER}/features`,
    message: `${layer}/ is a lower layer: it never imports a feature.`,
  })),
  {
    target: `${WEB}/components/ui`,
    from: `${WEB}/features`,
    message: 'components/ui is a lower layer: it never imports a feature.',
  },
];

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
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [...zones(SERVER, { tables: true }), ...zones(WEB, { tables: false }), ...LAYERS],
        },
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
