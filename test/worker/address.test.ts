/**
 * The addresses rate limits count by (`worker/src/address.ts`): an IPv6 caller by its /64, in any
 * of the textual forms one address has; an IPv4-mapped IPv6 address as its IPv4; and which
 * addresses and host names are this machine's own. Property tests (fast-check) over generated
 * addresses, each written in every form it has.
 */
import net from 'node:net';
import fc from 'fast-check';
import {addressKey, isLoopbackAddress, isLoopbackHost} from '../../worker/src/address';

const RUNS = 5_000;
const group = fc.integer({min: 0, max: 0xffff});
/** An IPv6 address as its eight groups. */
const groups = fc.array(group, {minLength: 8, maxLength: 8});
const ipv4 = fc.array(fc.integer({min: 0, max: 255}), {minLength: 4, maxLength: 4});

/** The /64, written plainly: the oracle. */
const networkOf = (address: number[]) =>
  `${address
    .slice(0, 4)
    .map((value) => value.toString(16).padStart(4, '0'))
    .join(':')}::/64`;

/** Every way to write one IPv6 address: full, without leading zeros, upper case, `::` anywhere it fits, a zone. */
function spellings(address: number[]): string[] {
  const hex = address.map((value) => value.toString(16));
  const forms = [
    address.map((value) => value.toString(16).padStart(4, '0')).join(':'),
    hex.join(':'),
    hex.join(':').toUpperCase(),
    `[${hex.join(':')}]`,
    `${hex.join(':')}%eth0`,
  ];
  // `::` may stand for any run of zero groups.
  for (let start = 0; start < 8; start++) {
    for (let end = start + 1; end <= 8 && address[end - 1] === 0; end++) {
      forms.push(`${hex.slice(0, start).join(':')}::${hex.slice(end).join(':')}`);
    }
  }
  return forms;
}

describe('addressKey: what a rate limit counts a caller by', () => {
  test('every spelling of an IPv6 address is its /64, expanded and lower-case', () => {
    fc.assert(
      fc.property(groups, (address) => {
        for (const spelling of spellings(address)) {
          if (!net.isIPv6(spelling.replace(/^\[|\]$/g, '').replace(/%.*$/, '')))
            throw new Error(`Not an address: ${spelling}`);
          // An IPv4-mapped address is the IPv4 one (next test); every other is its /64.
          const mapped = address.slice(0, 5).every((value) => value === 0) && address[5] === 0xffff;
          if (!mapped) expect(addressKey(spelling)).toBe(networkOf(address));
        }
      }),
      {numRuns: RUNS},
    );
  });

  test('two addresses of one /64 share a key; two /64s never do', () => {
    fc.assert(
      fc.property(groups, fc.array(group, {minLength: 4, maxLength: 4}), groups, (address, otherHost, other) => {
        fc.pre(address[0] !== 0 && other[0] !== 0); // not IPv4-mapped
        const sameNetwork = [...address.slice(0, 4), ...otherHost];
        expect(addressKey(spellings(sameNetwork)[1]!)).toBe(addressKey(spellings(address)[1]!));
        const differs = address.slice(0, 4).some((value, index) => value !== other[index]);
        expect(addressKey(spellings(other)[1]!) === addressKey(spellings(address)[1]!)).toBe(!differs);
      }),
      {numRuns: RUNS},
    );
  });

  test('an IPv4-mapped IPv6 address counts as the IPv4 address, in every spelling', () => {
    fc.assert(
      fc.property(ipv4, (octets) => {
        const dotted = octets.join('.');
        const high = ((octets[0]! << 8) | octets[1]!).toString(16);
        const low = ((octets[2]! << 8) | octets[3]!).toString(16);
        for (const spelling of [
          dotted,
          `::ffff:${dotted}`,
          `::FFFF:${dotted}`,
          `0:0:0:0:0:ffff:${dotted}`,
          `::ffff:${high}:${low}`,
          `[::ffff:${dotted}]`,
        ]) {
          expect(addressKey(spelling)).toBe(dotted);
        }
      }),
      {numRuns: RUNS},
    );
  });

  test('never throws, and anything that is not an address is kept short', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({unit: fc.constantFrom(...':.0123456789abcdefABCDEF[]%'.split(''))})),
        (text) => {
          const key = addressKey(text);
          expect(key.length).toBeLessThanOrEqual(64);
        },
      ),
      {numRuns: RUNS},
    );
    expect(addressKey('local')).toBe('local');
    expect(addressKey('1:2:3:4:5:6:7:8:9')).toBe('1:2:3:4:5:6:7:8:9'); // nine groups: not an address
    expect(addressKey('256.1.1.1')).toBe('256.1.1.1');
  });

  test('examples', () => {
    expect(addressKey('2001:DB8::1')).toBe('2001:0db8:0000:0000::/64');
    expect(addressKey('2001:db8:0:0:ffff:ffff:ffff:ffff')).toBe('2001:0db8:0000:0000::/64');
    expect(addressKey('2001:db8:0:1::1')).toBe('2001:0db8:0000:0001::/64');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('0064:ff9b:0000:0000::/64');
    expect(addressKey('  192.0.2.1 ')).toBe('192.0.2.1');
  });
});

describe('loopback', () => {
  test('addresses: 127.0.0.0/8, ::1 and IPv4-mapped 127.x are loopback; nothing else is', () => {
    fc.assert(
      fc.property(ipv4, (octets) => {
        const dotted = octets.join('.');
        expect(isLoopbackAddress(dotted)).toBe(octets[0] === 127);
        expect(isLoopbackAddress(`::ffff:${dotted}`)).toBe(octets[0] === 127);
      }),
      {numRuns: RUNS},
    );
    fc.assert(
      fc.property(groups, (address) => {
        fc.pre(!(address.slice(0, 5).every((value) => value === 0) && address[5] === 0xffff));
        const isOne = address.slice(0, 7).every((value) => value === 0) && address[7] === 1;
        for (const spelling of spellings(address)) expect(isLoopbackAddress(spelling)).toBe(isOne);
      }),
      {numRuns: RUNS},
    );
    for (const yes of ['::1', '0:0:0:0:0:0:0:1', '[::1]', '127.0.0.1', '127.255.0.9'])
      expect(isLoopbackAddress(yes)).toBe(true);
    for (const no of ['', 'local', '::', '::2', '10.0.0.1', '128.0.0.1', 'fd00::1', 'localhost'])
      expect(isLoopbackAddress(no)).toBe(false);
  });

  test('host names: localhost, *.localhost and loopback addresses, as a URL spells them', () => {
    for (const host of [
      'http://localhost:8787/',
      'http://LOCALHOST/',
      'http://app.localhost/',
      'http://127.0.0.1:4200/',
      'http://[::1]:8787/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      expect(isLoopbackHost(new URL(host).hostname)).toBe(true);
    }
    for (const host of [
      'https://slipway.dev/',
      'http://192.0.2.2:8787/',
      'http://[fd00::2]/',
      'http://localhost.evil.example/',
      'http://127.0.0.1.nip.io/',
    ]) {
      expect(isLoopbackHost(new URL(host).hostname)).toBe(false);
    }
  });
});
