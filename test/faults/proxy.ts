// A TCP proxy in front of a shared store that a fault test can cut and restore, so "the
// database (or Redis) stopped" is played without touching the store other tests use.
//   cut():     every open connection is destroyed and new ones are refused (the port closes),
//              as when the store's process stops;
//   restore(): the same port accepts and forwards again, as when the store is back;
//   delayMs:   each chunk from the client waits this long before it is forwarded (a request
//              is then reliably in flight when the test cuts).
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface Proxy { port: number; url(scheme: string): string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void>; delayMs: number }

export async function startProxy(target: string): Promise<Proxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const proxy: Proxy = {
    port: 0,
    delayMs: 0,
    url: (scheme) => `${scheme}://127.0.0.1:${proxy.port}`,
    async cut() {
      const s = server;
      server = undefined;
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async restore() {
      if (server) return;
      server = await listen(port);
    },
    async close() {
      await proxy.cut();
    },
  };
  const listen = (at: number) => new Promise<Server>((resolve, reject) => {
    const s = createServer((client) => {
      const upstream = connect(Number(targetPort), hostname);
      sockets.add(client).add(upstream);
      const drop = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.on('data', (d) => {
        if (!proxy.delayMs) return void upstream.write(d);
        client.pause();
        setTimeout(() => { if (!upstream.destroyed) upstream.write(d); client.resume(); }, proxy.delayMs);
      });
      upstream.pipe(client);
    });
    s.once('error', reject);
    s.listen(at, '127.0.0.1', () => resolve(s));
  });
  server = await listen(0);
  port = (server.address() as { port: number }).port;
  proxy.port = port;
  return proxy;
}
