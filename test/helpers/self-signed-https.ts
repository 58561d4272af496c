/**
 * A real HTTPS server on 127.0.0.1 with a throw-away self-signed certificate (made by `openssl`), for
 * clients that only accept https URLs (client ID metadata documents). Its PEM is handed to the client
 * under test as an extra CA; nothing else trusts it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HttpsFixture {
  /** `https://127.0.0.1:PORT` */
  origin: string;
  /** The certificate (PEM), to trust. */
  ca: string;
  close(): Promise<void>;
}

/** Starts the server with `handler`. */
export async function startSelfSignedHttps(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<HttpsFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-https-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const server: Server = createServer({ key, cert }, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      origin: `https://127.0.0.1:${port}`,
      ca: cert,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
