export type Resolver = (host: string) => Promise<string[]>;
export declare const systemResolver: Resolver;
/**
 * Registration-time URL rules: HTTPS, no credentials, and no blocked address, either written as
 * an IP literal or resolved from the name now. A name that does not resolve yet is accepted: the
 * dispatcher checks the address it actually connects to on every attempt (DNS rebinding).
 */
export declare function checkEndpointUrl(raw: string, allowPrivate: boolean, resolve?: Resolver): Promise<string>;
