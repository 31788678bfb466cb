/** How long a probe waits for a hub to answer: a hub that is up answers in milliseconds. */
export const probeTimeoutMs = 2000;

/** The hub's health check at the origin of a URL (its API's or its hooks'); null when no URL. */
export function healthUrlOf(url: string | null): URL | null {
  if (url === null || !URL.canParse(url)) return null;
  return new URL('/healthz', url);
}

/** Whether a hub answers its health check (which needs no token) within the timeout. */
export async function hubAnswers(healthUrl: URL): Promise<boolean> {
  try {
    const response = await fetch(healthUrl, { signal: AbortSignal.timeout(probeTimeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
