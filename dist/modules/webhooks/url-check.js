import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { validationError } from '../../lib/errors.js';
import { blockedHostName, classifyAddress, hostOf } from './ssrf.js';
const REGISTRATION_DNS_TIMEOUT_MS = 2000;
export const systemResolver = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);
/**
 * Registration-time URL rules: HTTPS, no credentials, and no blocked address, either written as
 * an IP literal or resolved from the name now. A name that does not resolve yet is accepted: the
 * dispatcher checks the address it actually connects to on every attempt (DNS rebinding).
 */
export async function checkEndpointUrl(raw, allowPrivate, resolve = systemResolver) {
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw validationError({ url: 'invalid_format' }, 'url is not an absolute URL.');
    }
    if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:' && isLoopback(hostOf(url)))) {
        throw validationError({ url: 'not_allowed' }, allowPrivate ? 'url must use https (plain http only to a loopback address: localhost, 127.0.0.0/8 or ::1).' : 'url must use https.');
    }
    if (url.username || url.password)
        throw validationError({ url: 'not_allowed' }, 'url must not carry credentials.');
    if (!url.hostname)
        throw validationError({ url: 'invalid_format' }, 'url has no host.');
    if (allowPrivate)
        return raw;
    const host = hostOf(url);
    const blocked = (cls) => {
        if (cls)
            throw validationError({ url: 'not_allowed' }, `url points to a ${cls.replace('_', ' ')} address, which webhooks may not target.`);
    };
    if (isIP(host))
        blocked(classifyAddress(host));
    else {
        blocked(blockedHostName(host));
        const addresses = await withTimeout(resolve(host), REGISTRATION_DNS_TIMEOUT_MS).catch(() => []);
        for (const address of addresses)
            blocked(classifyAddress(address));
    }
    return raw;
}
/**
 * Plain http is for local development only (CUSTOPS_WEBHOOK_ALLOW_PRIVATE=1), and only to this
 * machine: a name the resolver could point elsewhere does not count, `localhost` does.
 */
function isLoopback(host) {
    return isIP(host) ? classifyAddress(host) === 'loopback' : blockedHostName(host) === 'loopback';
}
function withTimeout(promise, ms) {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timeout')), ms);
        promise.then((v) => {
            clearTimeout(timer);
            resolve(v);
        }, (e) => {
            clearTimeout(timer);
            reject(e);
        });
    });
}
