import { createCipheriv, createDecipheriv, createHmac, hash, createSecretKey, randomBytes, scrypt, timingSafeEqual, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/** One-shot `crypto.hash`: a fifth of the cost of createHash().update().digest() on the short inputs hashed per request. */
export function sha256Hex(data: string | Buffer): string {
  return hash('sha256', data, 'hex');
}

export function hmacSha256Hex(key: string | Buffer, data: string | Buffer): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

/** Constant-time comparison of two strings (lengths may differ; that alone is not secret). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

/** `cok_` and 32 random bytes in base64url: 256 bits, so a plain SHA-256 of it is a safe lookup hash. */
export function generateApiKeySecret(): string {
  return 'cok_' + randomBytes(32).toString('base64url');
}

export const API_KEY_PREFIX_LENGTH = 12;

export function apiKeyPrefix(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX_LENGTH);
}

/** `whsec_` and 32 random bytes in standard base64, as Standard Webhooks libraries expect. */
export function generateWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}

/**
 * scrypt (memory-hard), r=8, p=1, N=2^cost: the default 15 uses 32 MiB and about 90 ms of CPU per
 * hash here (OWASP's minimum is 2^17 at r=8 for new systems with argon2 unavailable; 2^15 keeps the
 * CLI responsive on two cores). `CUSTOPS_PASSWORD_COST` sets it for new hashes (README,
 * Configuration), from 10 to MAX_PASSWORD_COST; verifying reads the parameters stored in each hash,
 * so changing it never locks anyone out, and sign-in rehashes a password whose hash has another cost.
 */
export const DEFAULT_PASSWORD_COST = 15;
/** 2^18 at r=8: 256 MiB and a few seconds of CPU per hash, the most a sign-in may cost. */
export const MAX_PASSWORD_COST = 18;

/** What hashing a password reads of the configuration; without it, the default cost. */
export interface PasswordConfig {
  passwordCost: number;
}
const R = 8;
const P = 1;
/** scrypt needs 128·r·N bytes; twice that leaves room for its bookkeeping. */
const scryptParams = (N: number, r = R, p = P) => ({ N, r, p, maxmem: 256 * r * N });

const storedHash = (N: number, salt: Buffer, hash: Buffer) => `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;

export async function hashPassword(password: string, cost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  return storedHash(N, salt, await scryptAsync(password.normalize('NFKC'), salt, 32, scryptParams(N)));
}

/**
 * A stored hash of the given cost whose salt and hash are random bytes: no password
 * matches it, and verifying against it costs what verifying a real hash costs (sign-in verifies
 * against it when no user has the email). Made without running scrypt, so it costs a process
 * nothing to keep one.
 */
export function unmatchablePasswordHash(cost = DEFAULT_PASSWORD_COST): string {
  return storedHash(2 ** cost, randomBytes(16), randomBytes(32));
}

/** The cost (log2 N) of a stored hash this module could have made, or null for any other string. */
function costOf(stored: string): number | null {
  const [scheme, n, r, p] = stored.split('$');
  const cost = Math.log2(Number(n));
  return scheme === 'scrypt' && Number(r) === R && Number(p) === P && Number.isInteger(cost) && cost >= 1 && cost <= MAX_PASSWORD_COST ? cost : null;
}

/** Whether a stored hash should be made again at `cost` (after `CUSTOPS_PASSWORD_COST` changed). */
export function needsRehash(stored: string, cost = DEFAULT_PASSWORD_COST): boolean {
  return costOf(stored) !== cost;
}

/** Only hashes of this module's shape and within MAX_PASSWORD_COST are verified: a stored string cannot ask for more work. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !hashB64 || costOf(stored) === null) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scryptAsync(password.normalize('NFKC'), Buffer.from(saltB64, 'base64'), expected.length, scryptParams(Number(n), Number(r), Number(p)));
  return timingSafeEqual(actual, expected);
}

// The key object is built once per key: importing raw key bytes on every call was a measurable share of replays.
const keyObjects = new WeakMap<Buffer, KeyObject>();
function aesKey(key: Buffer): KeyObject {
  let k = keyObjects.get(key);
  if (!k) {
    k = createSecretKey(key);
    keyObjects.set(key, k);
  }
  return k;
}

/** AES-256-GCM; the stored form is base64 of iv (12) | tag (16) | ciphertext. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey(key), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}

/**
 * GCM deciphers as it goes: `update` returns every byte and `final` only checks the tag (it throws
 * when the text or tag was altered), so the text is decoded from `update`'s buffer alone.
 */
export function decryptSecret(key: Buffer, stored: string): string {
  const raw = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', aesKey(key), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const plain = decipher.update(raw.subarray(28));
  decipher.final();
  return plain.toString('utf8');
}
