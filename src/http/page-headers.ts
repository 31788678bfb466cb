/**
 * The headers of the hub's HTML pages. No other site may frame them: a framed page can be
 * clicked through by a page over it (clickjacking), and GraphiQL fills its editor from
 * `?query=`, so a framed GraphiQL would hold an operation the attacker chose. `X-Frame-Options`
 * says so to browsers that predate CSP's `frame-ancestors`.
 */
const noFraming = "frame-ancestors 'none'";

/**
 * The dashboard loads only its own files and talks only to its hub (GraphQL over fetch, SSE and
 * graphql-ws, which `'self'` covers); styles may be inline, since the terminal (xterm) sets
 * them in `<style>` elements it makes.
 */
export const dashboardPageHeaders: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    noFraming,
  ].join('; '),
};

/**
 * GraphiQL's page inlines its scripts, styles and fonts and starts its editor's workers from
 * blobs, so a policy on scripts would need `'unsafe-inline'` and guard nothing: it keeps to
 * what cannot break it.
 */
export const graphiqlPageHeaders: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': ["object-src 'none'", "base-uri 'none'", noFraming].join('; '),
};
