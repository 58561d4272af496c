/**
 * A tiny real DNS server on 127.0.0.1 (UDP, node:dgram) answering A and AAAA queries from a table
 * that a test may change at any time (to play a rebinding attacker), and a resolver that asks it.
 */
import { createSocket, type Socket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import type { HostResolver } from '../../src/registry/resolve-host.js';

export interface TestDnsServer {
  port: number;
  /** name → addresses (IPv4 and IPv6 mixed). Change it to change the answers. */
  records: Map<string, string[]>;
  /** How many queries each name got. */
  queries: Map<string, number>;
  resolver: HostResolver;
  close(): Promise<void>;
}

export async function startDnsServer(records: Record<string, string[]> = {}): Promise<TestDnsServer> {
  const table = new Map(Object.entries(records));
  const queries = new Map<string, number>();
  const socket: Socket = createSocket('udp4');
  socket.on('message', (message, remote) => {
    const answer = respond(message, table, queries);
    if (answer !== undefined) socket.send(answer, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  const resolver: HostResolver = async (hostname) => {
    const dns = new Resolver({ timeout: 2_000, tries: 1 });
    dns.setServers([`127.0.0.1:${port}`]);
    const [v4, v6] = await Promise.allSettled([dns.resolve4(hostname), dns.resolve6(hostname)]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (addresses.length === 0) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return { port, records: table, queries, resolver, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

function respond(message: Buffer, table: Map<string, string[]>, queries: Map<string, number>): Buffer | undefined {
  if (message.length < 12) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length) {
    const length = message[offset] ?? 0;
    offset++;
    if (length === 0) break;
    labels.push(message.subarray(offset, offset + length).toString('ascii'));
    offset += length;
  }
  const type = message.readUInt16BE(offset);
  const question = message.subarray(12, offset + 4);
  const name = labels.join('.').toLowerCase();
  queries.set(name, (queries.get(name) ?? 0) + 1);
  const addresses = table.get(name);
  const wanted = (addresses ?? []).filter((address) => (type === 1 ? address.includes('.') && !address.includes(':') : type === 28 ? address.includes(':') : false));
  const header = Buffer.alloc(12);
  header.writeUInt16BE(message.readUInt16BE(0), 0); // id
  header.writeUInt16BE(addresses === undefined ? 0x8183 : 0x8180, 2); // response, RD+RA, NXDOMAIN or OK
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(wanted.length, 6);
  const answers = wanted.map((address) => {
    const data = type === 1 ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address);
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // pointer to the question name
    record.writeUInt16BE(type, 2);
    record.writeUInt16BE(1, 4); // IN
    record.writeUInt32BE(0, 6); // TTL 0: every lookup asks again
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header, question, ...answers]);
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === '' ? [] : tail.split(':');
  const parts = address.includes('::') ? [...headParts, ...Array<string>(8 - headParts.length - tailParts.length).fill('0'), ...tailParts] : headParts;
  const bytes = Buffer.alloc(16);
  parts.forEach((part, index) => bytes.writeUInt16BE(Number.parseInt(part, 16), index * 2));
  return bytes;
}
