import Type, { type StaticDecode } from 'typebox';
/** Standard Webhooks schedule: 5s, 5m, 30m, 2h, 5h, 10h, 14h, 20h, 24h (10 attempts in all). */
export declare const DEFAULT_RETRY_SCHEDULE: readonly [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
/**
 * Every environment setting, in one TypeBox schema: adding a setting is one entry here (its
 * decoded value then appears on `Config` under the property's name). Values arrive as text;
 * `loadConfig` turns digit strings into numbers for integer settings, then TypeBox fills the
 * defaults, checks, and decodes.
 */
export declare const SettingsSchema: Type.TObject<{
    databaseUrl: Type.TString;
    port: Type.TInteger;
    host: Type.TString;
    redisUrl: Type.TUnion<[Type.TNull, Type.TString]>;
    secretKey: Type.TCodec<Type.TUnion<[Type.TNull, Type.TString]>, Buffer<ArrayBufferLike> | null>;
    rateLimitPerMinute: Type.TInteger;
    webhookRetryScheduleSeconds: Type.TCodec<Type.TString, readonly number[]>;
    webhookTimeoutMs: Type.TInteger;
    webhookAllowPrivate: Type.TCodec<Type.TUnion<Type.TLiteral<string>[]>, any>;
    idempotencyTtlHours: Type.TInteger;
    logLevel: Type.TUnion<Type.TLiteral<"debug" | "error" | "fatal" | "info" | "silent" | "trace" | "warn">[]>;
    dataDir: Type.TCodec<Type.TUnion<[Type.TNull, Type.TString]>, string | null>;
    pgPoolSize: Type.TInteger;
    trustProxy: Type.TCodec<Type.TUnion<[Type.TNull, Type.TString]>, readonly string[]>;
    dbConnectTimeoutMs: Type.TInteger;
    dbStatementTimeoutMs: Type.TInteger;
    sqliteBusyTimeoutMs: Type.TInteger;
    redisTimeoutMs: Type.TInteger;
    httpHeadersTimeoutMs: Type.TInteger;
    httpRequestTimeoutMs: Type.TInteger;
    httpKeepAliveTimeoutMs: Type.TInteger;
    metricsToken: Type.TUnion<[Type.TNull, Type.TString]>;
    consoleRateLimitPerMinute: Type.TInteger;
    cookieSecure: Type.TCodec<Type.TUnion<Type.TLiteral<string>[]>, any>;
}>;
/** Settings decoded once at start-up from the environment (and CLI flags), then frozen. */
export type Config = Readonly<StaticDecode<typeof SettingsSchema>> & {
    readonly dialect: 'sqlite' | 'postgres';
    readonly secretKeySource: 'env' | 'file' | 'none';
    readonly webhookConnectTimeoutMs: number;
};
export declare class ConfigError extends Error {
    readonly variable: string;
    constructor(variable: string, message: string);
}
export declare function decodeSecretKey(raw: string, variable?: string): Buffer;
export interface ConfigOverrides {
    port?: number;
    host?: string;
}
/** Decodes the environment. Throws ConfigError naming the variable on the first invalid one. */
export declare function loadConfig(env?: NodeJS.ProcessEnv, overrides?: ConfigOverrides): Config;
/** One line per setting (variable, default, meaning), for `custops help`. */
export declare function describeSettings(): string[];
