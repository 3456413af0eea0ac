// A loopback DNS server for domain verification tests: answers TXT queries from a map the test
// fills (name -> values), NXDOMAIN for other names. Packets are encoded with dns-packet.
import { createSocket } from 'node:dgram';
import dnsPacket from 'dns-packet';
import type { Test } from 'tap';

export interface TestDns { server: string; txt: Map<string, string[]>; queries: string[] }

export async function startDns(t: Test): Promise<TestDns> {
  const txt = new Map<string, string[]>();
  const queries: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    let query;
    try { query = dnsPacket.decode(msg); } catch { return; }
    const q = query.questions?.[0];
    if (!q) return;
    queries.push(`${q.type} ${q.name}`);
    const values = q.type === 'TXT' ? txt.get(q.name.toLowerCase()) : undefined;
    const answer = dnsPacket.encode({
      id: query.id, type: 'response', flags: dnsPacket.AUTHORITATIVE_ANSWER | (values ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [q],
      answers: (values ?? []).map((v) => ({ type: 'TXT' as const, name: q.name, ttl: 60, class: 'IN' as const, data: v })),
    });
    socket.send(answer, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return { server: `127.0.0.1:${socket.address().port}`, txt, queries };
}
