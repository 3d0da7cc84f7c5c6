import type { Server } from 'node:http';
import { serve } from '@hono/node-server';

export interface LocalServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves a fetch handler (a Hono app's `fetch`) on a free loopback port. */
export function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<LocalServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            // Keep-alive connections from the browser would hold close() open otherwise.
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ) as Server;
    server.once('error', reject);
  });
}
