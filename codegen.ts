import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents for the operations of the clients (the command line in src/cli/, the
 * dashboard and the examples), generated from the committed schema into src/gql/.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['src/cli/**/*.ts', 'dashboard/src/**/*.ts', 'examples/**/*.ts'],
  ignoreNoDocuments: false,
  importExtension: '.js',
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { JSON: 'unknown', DateTime: 'string', ID: 'string' },
      },
    },
  },
};

export default config;
