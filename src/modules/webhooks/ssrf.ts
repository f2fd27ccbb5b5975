import { isIP } from 'node:net';

/**
 * The address rules for webhook targets (docs/design.md#webhooks): loopback, private,
 * link-local, CGNAT, multicast, reserved and cloud-metadata addresses are refused, in IPv4 and
 * IPv6 and in the IPv6 forms that carry an IPv4 address (mapped, compatible, translated, 6to4,
 * NAT64, Teredo). Returns the class that blocks the address, or null when it may be used.
 */
export type BlockedClass = 'loopback' | 'private' | 'link_local' | 'cgnat' | 'multicast' | 'reserved' | 'cloud_metadata' | 'unspecified';

type V4Rule = [base: number, bits: number, cls: BlockedClass];

const v4 = (text: string): number => text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);

// Order matters: the narrower metadata addresses come before the ranges that hold them.
const V4_RULES: V4Rule[] = [
  [v4('169.254.169.254'), 32, 'cloud_metadata'],
  [v4('169.254.170.2'), 32, 'cloud_metadata'],
  [v4('100.100.100.200'), 32, 'cloud_metadata'],
  [v4('168.63.129.16'), 32, 'cloud_metadata'],
  [v4('192.0.0.192'), 32, 'cloud_metadata'],
  [v4('0.0.0.0'), 32, 'unspecified'],
  [v4('0.0.0.0'), 8, 'reserved'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link_local'],
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

function classifyV4(n: number): BlockedClass | null {
  for (const [base, bits, cls] of V4_RULES) {
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return cls;
  }
  return null;
}

/** Parses an IPv6 address (with an optional dotted IPv4 tail and zone) into 16 bytes. */
export function parseV6(text: string): number[] | null {
  let s = text.split('%')[0].toLowerCase();
  const tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const dotted = s.slice(lastColon + 1);
    if (isIP(dotted) !== 4) return null;
    const n = v4(dotted);
    tail.push((n >>> 16) & 0xffff, n & 0xffff);
    s = s.slice(0, lastColon + 1) + (tail.length ? '0:0' : '');
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN)));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...new Array(halves.length === 2 ? missing : 0).fill(0), ...rest];
  if (tail.length) groups.splice(6, 2, ...tail);
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g))) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

const v4At = (b: number[], i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const prefix = (b: number[], bytes: number[]) => bytes.every((x, i) => b[i] === x);
const zeros = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0);

function classifyV6(b: number[]): BlockedClass | null {
  if (zeros(b, 0, 16)) return 'unspecified';
  if (zeros(b, 0, 15) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (translated): the IPv4 rules apply.
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(v4At(b, 12));
  if (zeros(b, 0, 12)) return classifyV4(v4At(b, 12));
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return classifyV4(v4At(b, 12));
  // NAT64 well-known prefix 64:ff9b::/96; the local-use 64:ff9b:1::/48 only reaches private networks.
  if (prefix(b, [0x00, 0x64, 0xff, 0x9b]) && zeros(b, 4, 12)) return classifyV4(v4At(b, 12));
  if (prefix(b, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01])) return 'private';
  if (prefix(b, [0x20, 0x02])) return classifyV4(v4At(b, 2)); // 6to4
  if (prefix(b, [0x20, 0x01, 0x00, 0x00])) return classifyV4(~v4At(b, 12) >>> 0); // Teredo: client address, inverted
  if (prefix(b, [0xfd, 0x00, 0x0e, 0xc2]) && zeros(b, 4, 14) && b[14] === 0x02 && b[15] === 0x54) return 'cloud_metadata'; // fd00:ec2::254
  if (b[0] === 0xff) return 'multicast';
  if ((b[0] & 0xfe) === 0xfc) return 'private'; // fc00::/7 unique local
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link_local';
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'private'; // fec0::/10 site-local
  if (prefix(b, [0x20, 0x01, 0x0d, 0xb8])) return 'reserved'; // documentation
  if (prefix(b, [0x20, 0x01, 0x00]) && (b[3] & 0xf0) === 0x10) return 'reserved'; // ORCHID 2001:10::/28
  if (prefix(b, [0x20, 0x01, 0x00]) && (b[3] & 0xf0) === 0x20) return 'reserved'; // ORCHIDv2 2001:20::/28
  if (prefix(b, [0x20, 0x01, 0x00, 0x02, 0x00, 0x00])) return 'reserved'; // benchmarking
  if (prefix(b, [0x3f, 0xff]) && (b[2] & 0xf0) === 0) return 'reserved'; // documentation 3fff::/20
  if (prefix(b, [0x01, 0x00]) && zeros(b, 2, 8)) return 'reserved'; // discard-only 100::/64
  if ((b[0] & 0xe0) !== 0x20) return 'reserved'; // outside global unicast 2000::/3
  return null;
}

export function classifyAddress(address: string): BlockedClass | null {
  const family = isIP(address.split('%')[0]);
  if (family === 4) return classifyV4(v4(address));
  if (family === 6) {
    const bytes = parseV6(address);
    return bytes ? classifyV6(bytes) : 'reserved';
  }
  return 'reserved';
}

/** Host names that always mean "this machine" or a metadata service, whatever DNS says. */
export function blockedHostName(host: string): BlockedClass | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  if (h === 'metadata.google.internal' || h === 'metadata' || h === 'instance-data' || h.endsWith('.internal')) return 'cloud_metadata';
  return null;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
