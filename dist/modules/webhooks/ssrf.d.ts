/**
 * The address rules for webhook targets (decisions.md "Webhooks"): loopback, private,
 * link-local, CGNAT, multicast, reserved and cloud-metadata addresses are refused, in IPv4 and
 * IPv6 and in the IPv6 forms that carry an IPv4 address (mapped, compatible, translated, 6to4,
 * NAT64, Teredo). Returns the class that blocks the address, or null when it may be used.
 */
export type BlockedClass = 'loopback' | 'private' | 'link_local' | 'cgnat' | 'multicast' | 'reserved' | 'cloud_metadata' | 'unspecified';
/** Parses an IPv6 address (with an optional dotted IPv4 tail and zone) into 16 bytes. */
export declare function parseV6(text: string): number[] | null;
export declare function classifyAddress(address: string): BlockedClass | null;
/** Host names that always mean "this machine" or a metadata service, whatever DNS says. */
export declare function blockedHostName(host: string): BlockedClass | null;
/** The URL's host without IPv6 brackets. */
export declare function hostOf(url: URL): string;
