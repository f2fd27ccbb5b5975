export declare function sha256Hex(data: string | Buffer): string;
export declare function hmacSha256Hex(key: string | Buffer, data: string | Buffer): string;
/** Constant-time comparison of two strings (lengths may differ; that alone is not secret). */
export declare function safeEqual(a: string, b: string): boolean;
/** `cok_` and 32 random bytes in base64url: 256 bits, so a plain SHA-256 of it is a safe lookup hash. */
export declare function generateApiKeySecret(): string;
export declare const API_KEY_PREFIX_LENGTH = 12;
export declare function apiKeyPrefix(secret: string): string;
/** `whsec_` and 32 random bytes in standard base64, as Standard Webhooks libraries expect. */
export declare function generateWebhookSecret(): string;
export declare function hashPassword(password: string): Promise<string>;
export declare function verifyPassword(password: string, stored: string): Promise<boolean>;
/** AES-256-GCM; the stored form is base64 of iv (12) | tag (16) | ciphertext. */
export declare function encryptSecret(key: Buffer, plaintext: string): string;
export declare function decryptSecret(key: Buffer, stored: string): string;
