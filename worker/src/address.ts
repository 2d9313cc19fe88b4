/**
 * IP addresses as the worker counts and trusts them. A rate limit keyed by the exact address gives
 * an IPv6 caller one bucket per address, and a single customer usually holds a whole /64 (2^64
 * addresses): so an IPv6 caller is counted by its /64. The address is read in any of its textual
 * forms (upper or lower case, `::`, leading zeros, an embedded IPv4 tail, a zone), and an
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is the IPv4 address it carries.
 */

type Parsed = {version: 4; octets: number[]} | {version: 6; groups: number[]};

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;

function parseIpv4(text: string): number[] | null {
  const match = IPV4.exec(text);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function parseIpv6(text: string): number[] | null {
  let rest = text.toLowerCase();
  if (rest.startsWith('[') && rest.endsWith(']')) rest = rest.slice(1, -1);
  const zone = rest.indexOf('%');
  if (zone !== -1) rest = rest.slice(0, zone);
  // An embedded IPv4 tail (`::ffff:192.0.2.1`) is the last two groups.
  let tail: number[] = [];
  const lastColon = rest.lastIndexOf(':');
  if (lastColon !== -1 && rest.slice(lastColon + 1).includes('.')) {
    const octets = parseIpv4(rest.slice(lastColon + 1));
    if (!octets) return null;
    tail = [(octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!];
    rest = rest.slice(0, lastColon + 1);
    // `::192.0.2.1` and `64:ff9b::192.0.2.1` keep their `::`; `1:2:3:4:5:6:192.0.2.1` ends in one colon.
    if (!rest.endsWith('::')) rest = rest.slice(0, -1);
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]!);
  const back = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (![...head, ...back].every((group) => HEX_GROUP.test(group))) return null;
  const known = head.length + back.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = new Array<number>(8 - known).fill(0);
  return [...head.map((group) => parseInt(group, 16)), ...zeros, ...back.map((group) => parseInt(group, 16)), ...tail];
}

function parse(text: string): Parsed | null {
  const trimmed = text.trim();
  const octets = parseIpv4(trimmed);
  if (octets) return {version: 4, octets};
  const groups = parseIpv6(trimmed);
  if (!groups) return null;
  // IPv4-mapped (::ffff:0:0/96): the IPv4 address it carries.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return {version: 4, octets: [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255]};
  }
  return {version: 6, groups};
}

/**
 * The key a rate limit counts a caller by: an IPv4 address (`192.0.2.1`), or an IPv6 caller's /64,
 * expanded and lower-case (`2001:0db8:0000:0001::/64`). Anything that is not an address (Cloudflare
 * always sends one; `wrangler dev` may not) is kept as it is, lower-case and cut to 64 characters.
 */
export function addressKey(text: string): string {
  const address = parse(text);
  if (!address) return text.trim().toLowerCase().slice(0, 64);
  if (address.version === 4) return address.octets.join('.');
  const network = address.groups.slice(0, 4).map((group) => group.toString(16).padStart(4, '0'));
  return `${network.join(':')}::/64`;
}

/** Whether the address is this machine's own: 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address. */
export function isLoopbackAddress(text: string): boolean {
  const address = parse(text);
  if (!address) return false;
  if (address.version === 4) return address.octets[0] === 127;
  return address.groups.slice(0, 7).every((group) => group === 0) && address.groups[7] === 1;
}

/** Whether a URL's host name names this machine: localhost (and *.localhost) or a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}
