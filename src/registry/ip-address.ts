/**
 * @module registry/ip-address
 * Which addresses a tenant's server URL must not reach (SSRF): loopback, private, link-local, CGNAT,
 * cloud metadata, unspecified, multicast and reserved ranges — for IPv4, and for IPv6 including the
 * forms that carry an IPv4 address inside (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`), which reach the embedded IPv4 host.
 */

import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not public. */
export type AddressCategory = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'cgnat' | 'metadata' | 'multicast' | 'reserved';

/** Every category, e.g. for validating a policy. */
export const ADDRESS_CATEGORIES: readonly AddressCategory[] = ['unspecified', 'loopback', 'private', 'link-local', 'cgnat', 'metadata', 'multicast', 'reserved'];

/** An address and, when it is not public, why. */
export interface AddressClass {
  /** The address as given (zone id removed). */
  address: string;
  /** Undefined for a public address. */
  category: AddressCategory | undefined;
  /** The IPv4 address an IPv6 form reaches, and which form it is. */
  embedded?: { ipv4: string; form: 'ipv4-mapped' | 'ipv4-compatible' | 'nat64' | '6to4' };
}

type Range4 = [base: number, prefix: number, category: AddressCategory];

// Most specific first: metadata addresses sit inside link-local and CGNAT ranges.
const IPV4_RANGES: readonly Range4[] = [
  [v4('169.254.169.254'), 32, 'metadata'], // AWS, GCP, Azure, OpenStack, DigitalOcean
  [v4('100.100.100.200'), 32, 'metadata'], // Alibaba Cloud
  [v4('192.0.0.192'), 32, 'metadata'], // Oracle Cloud
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.0.2.0'), 24, 'reserved'],
  [v4('192.88.99.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('198.51.100.0'), 24, 'reserved'],
  [v4('203.0.113.0'), 24, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

type Range6 = [bytes: Uint8Array, prefix: number, category: AddressCategory];

const IPV6_RANGES: readonly Range6[] = [
  [v6('fd00:ec2::254'), 128, 'metadata'], // AWS over IPv6
  [v6('::'), 128, 'unspecified'],
  [v6('::1'), 128, 'loopback'],
  [v6('64:ff9b:1::'), 48, 'private'], // local-use NAT64 (RFC 8215)
  [v6('100::'), 64, 'reserved'], // discard-only
  [v6('2001::'), 32, 'reserved'], // Teredo
  [v6('2001:db8::'), 32, 'reserved'], // documentation
  [v6('3fff::'), 20, 'reserved'], // documentation
  [v6('fc00::'), 7, 'private'], // unique local
  [v6('fe80::'), 10, 'link-local'],
  [v6('fec0::'), 10, 'private'], // site-local (deprecated)
  [v6('ff00::'), 8, 'multicast'],
  [v6('::'), 8, 'reserved'],
];

/** Classifies an IP address (v4 or v6, `[…]` and `%zone` accepted). Throws on a non-address. */
export function classifyAddress(input: string): AddressClass {
  const address = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(address)) return { address, category: categoryOf4(v4(address)) };
  if (!isIPv6(address)) throw new TypeError(`not an IP address: ${input}`);
  const bytes = v6(address);
  const embedded = embeddedIPv4(bytes);
  if (embedded !== undefined) {
    const ipv4 = formatV4(embedded.value);
    // A public IPv4 inside a translation prefix is as public as the IPv4 itself.
    return { address, category: categoryOf4(embedded.value), embedded: { ipv4, form: embedded.form } };
  }
  for (const [base, prefix, category] of IPV6_RANGES) if (prefixMatches(bytes, base, prefix)) return { address, category };
  return { address, category: undefined };
}

/** True when `address` lies in `cidr` (`10.0.0.0/8`, `fd00::/8`, or a single address). IPv6 forms of an IPv4 address match IPv4 ranges. */
export function addressInCidr(address: string, cidr: string): boolean {
  const parsed = parseCidr(cidr);
  if (parsed === undefined) return false;
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (parsed.family === 4) {
    let value: number | undefined;
    if (isIPv4(plain)) value = v4(plain);
    else if (isIPv6(plain)) value = embeddedIPv4(v6(plain))?.value;
    if (value === undefined) return false;
    return parsed.prefix === 0 || value >>> (32 - parsed.prefix) === parsed.base4 >>> (32 - parsed.prefix);
  }
  if (!isIPv6(plain)) return false;
  return prefixMatches(v6(plain), parsed.base6, parsed.prefix);
}

/** Parses `a.b.c.d/n`, `x::y/n` or a single address; undefined when it is not one. */
export function parseCidr(cidr: string): { family: 4; base4: number; prefix: number } | { family: 6; base6: Uint8Array; prefix: number } | undefined {
  const [addressPart = '', prefixPart] = cidr.trim().split('/');
  const address = addressPart.replace(/^\[|\]$/g, '');
  if (isIPv4(address)) {
    const prefix = prefixPart === undefined ? 32 : Number(prefixPart);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) return undefined;
    return { family: 4, base4: v4(address), prefix };
  }
  if (isIPv6(address)) {
    const prefix = prefixPart === undefined ? 128 : Number(prefixPart);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > 128) return undefined;
    return { family: 6, base6: v6(address), prefix };
  }
  return undefined;
}

function categoryOf4(value: number): AddressCategory | undefined {
  for (const [base, prefix, category] of IPV4_RANGES) {
    if (prefix === 0 || value >>> (32 - prefix) === base >>> (32 - prefix)) return category;
  }
  return undefined;
}

function embeddedIPv4(bytes: Uint8Array): { value: number; form: 'ipv4-mapped' | 'ipv4-compatible' | 'nat64' | '6to4' } | undefined {
  const last32 = (((bytes[12] ?? 0) << 24) | ((bytes[13] ?? 0) << 16) | ((bytes[14] ?? 0) << 8) | (bytes[15] ?? 0)) >>> 0;
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return { value: last32, form: 'ipv4-mapped' };
  // ::a.b.c.d (deprecated, still routed to the IPv4 host by some stacks); :: and ::1 are not.
  if (zeros(0, 12) && last32 > 1) return { value: last32, form: 'ipv4-compatible' };
  if (prefixMatches(bytes, NAT64_PREFIX, 96)) return { value: last32, form: 'nat64' };
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    return { value: (((bytes[2] ?? 0) << 24) | ((bytes[3] ?? 0) << 16) | ((bytes[4] ?? 0) << 8) | (bytes[5] ?? 0)) >>> 0, form: '6to4' };
  }
  return undefined;
}

function prefixMatches(bytes: Uint8Array, base: Uint8Array, prefix: number): boolean {
  const whole = Math.floor(prefix / 8);
  for (let index = 0; index < whole; index++) if (bytes[index] !== base[index]) return false;
  const rest = prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] ?? 0) & mask) === ((base[whole] ?? 0) & mask);
}

function v4(address: string): number {
  return address.split('.').reduce((value, part) => ((value << 8) | Number(part)) >>> 0, 0);
}

function formatV4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

/** 16 bytes of an IPv6 address (valid per `isIPv6`). */
function v6(address: string): Uint8Array {
  let text = address;
  // A trailing dotted quad becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const value = v4(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array<string>(missing).fill('0'), ...tailParts];
  const bytes = new Uint8Array(16);
  parts.forEach((part, index) => {
    const value = Number.parseInt(part, 16);
    bytes[index * 2] = value >>> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

const NAT64_PREFIX = v6('64:ff9b::');
