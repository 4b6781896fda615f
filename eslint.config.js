// Lint rules: typescript-eslint with type information, caps modelled on pepr (complexity 10, depth 3, params 4).
import tseslint from 'typescript-eslint';
import layers from './eslint-rules/layer-imports.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'coverage/**',
      'node_modules/**',
      '**/*.generated.js',
      'eslint.config.js',
      'eslint-rules/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      complexity: ['warn', 10],
      'max-depth': ['error', 3],
      'max-params': ['error', 4],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Layers: each directory of operator/ and dataplane/ imports only the ones below it (docs/architecture.md).
    files: ['operator/**/*.ts', 'dataplane/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.fixtures.ts', '**/testdata/**'],
    plugins: { layers },
    rules: { 'layers/direction': 'error' },
  },
  {
    // The data plane never depends on the operator, tests included (docs/architecture.md).
    files: ['dataplane/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/operator/**'], message: 'dataplane/ must not import operator/' }] },
      ],
    },
  },
  {
    // Compiled jq unwinds its generators with plain objects (an error jq raised, a `first` that has its
    // output): an Error would capture a stack trace at every throw, on the hot path of `?` and `limit`.
    files: ['dataplane/codecs/jaq/compiled/*.ts'],
    rules: { '@typescript-eslint/only-throw-error': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      complexity: 'off',
      'max-depth': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
