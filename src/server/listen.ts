import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `host` and `port`; resolves with the port listened on (the one picked for 0). */
export async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** The hooks of a session reach the hub over loopback whatever address it listens on. */
export function hookHost(host: string): string {
  if (['0.0.0.0', '::', '', 'localhost'].includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The address as a URL shows it: an IPv6 address in brackets. */
export function shownHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
