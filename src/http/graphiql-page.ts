import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import { graphiqlPageHeaders } from './page-headers.js';

/**
 * GraphiQL's page from @graphql-yoga/render-graphiql, for yoga's `renderGraphiQL`. Its scripts,
 * styles, fonts and editor workers are inlined (9 MB), so it works without internet; yoga's
 * own page loads them from a CDN and stays blank offline. yoga renders the page on every
 * request, which costs some 60 ms of CPU for this one: it is rendered and encoded once, with
 * the options of the first request (the hub's, the same for every request). The bundle is
 * imported then, not at start, so a hub whose GraphiQL nobody opens does not hold it.
 */
export function graphiqlPage(): (options: GraphiQLOptions) => Promise<Uint8Array<ArrayBuffer>> {
  let page: Promise<Uint8Array<ArrayBuffer>> | undefined;
  return (options) =>
    (page ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) =>
      Buffer.from(renderGraphiQL(options)),
    ));
}

/** Sends GraphiQL's page, yoga's one HTML answer, with its frame policy (page-headers.ts). */
export function useGraphiqlPageHeaders(): Plugin {
  return {
    onResponse({ response }) {
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      for (const [name, value] of Object.entries(graphiqlPageHeaders)) {
        response.headers.set(name, value);
      }
    },
  };
}
