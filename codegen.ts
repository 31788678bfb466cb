import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed documents for the operations under client/, generated from the committed schema. */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['client/**/*.ts', '!client/gql/**'],
  ignoreNoDocuments: false,
  importExtension: '.js',
  generates: {
    'client/gql/': {
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
