import { describe, expect, test } from 'vitest';
import { addressInCidr, classifyAddress, parseCidr } from './ip-address.js';

describe('classifyAddress', () => {
  test.each([
    ['8.8.8.8', undefined],
    ['93.184.215.14', undefined],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', undefined],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', undefined],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['2606:4700:4700::1111', undefined],
    ['64:ff9b:1::1', 'private'],
  ])('%s → %s', (address, category) => {
    expect(classifyAddress(address).category).toBe(category);
  });

  test.each([
    ['::ffff:10.0.0.1', 'private', '10.0.0.1', 'ipv4-mapped'],
    ['::ffff:a00:1', 'private', '10.0.0.1', 'ipv4-mapped'],
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'loopback', '127.0.0.1', 'ipv4-mapped'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata', '169.254.169.254', 'ipv4-mapped'],
    ['::127.0.0.1', 'loopback', '127.0.0.1', 'ipv4-compatible'],
    ['64:ff9b::a9fe:a9fe', 'metadata', '169.254.169.254', 'nat64'],
    ['64:ff9b::10.1.2.3', 'private', '10.1.2.3', 'nat64'],
    ['2002:c0a8:0101::1', 'private', '192.168.1.1', '6to4'],
    ['::ffff:8.8.8.8', undefined, '8.8.8.8', 'ipv4-mapped'],
    ['64:ff9b::808:808', undefined, '8.8.8.8', 'nat64'],
  ])('%s reaches %s (%s, %s)', (address, category, ipv4, form) => {
    const classified = classifyAddress(address);
    expect(classified.category).toBe(category);
    expect(classified.embedded).toEqual({ ipv4, form });
  });

  test('a non-address throws', () => {
    expect(() => classifyAddress('example.com')).toThrow(/not an IP address/);
  });
});

describe('CIDR', () => {
  test.each([
    ['10.1.2.3', '10.0.0.0/8', true],
    ['10.1.2.3', '10.1.0.0/16', true],
    ['10.2.2.3', '10.1.0.0/16', false],
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.2', '127.0.0.1/32', false],
    ['::ffff:10.1.2.3', '10.0.0.0/8', true],
    ['fd00::5', 'fd00::/8', true],
    ['fe80::1', 'fd00::/8', false],
    ['10.0.0.1', 'fd00::/8', false],
    ['1.2.3.4', '0.0.0.0/0', true],
  ])('%s in %s: %s', (address, cidr, inside) => {
    expect(addressInCidr(address, cidr)).toBe(inside);
  });

  test('invalid ranges are not ranges', () => {
    expect(parseCidr('10.0.0.0/33')).toBeUndefined();
    expect(parseCidr('example.com/8')).toBeUndefined();
    expect(parseCidr('::/129')).toBeUndefined();
    expect(addressInCidr('10.0.0.1', 'nonsense')).toBe(false);
  });
});
