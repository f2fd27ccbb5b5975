/**
 * Where SQLite mode keeps its generated key: `secret.key` beside the database file (so starting from
 * another directory finds the same key), or in CUSTOPS_DATA_DIR when that is set. An in-memory
 * database has none (its secrets die with it). PostgreSQL mode never uses a file.
 */
export declare function keyFilePath(databaseUrl: string, dataDir: string | null): string | null;
/** The file a rotation writes first; it becomes the key file once the re-encryption has committed. */
export declare const nextKeyFile: (file: string) => string;
export declare function readKeyFile(file: string): Buffer;
export declare function generateKey(): Buffer;
/** Writes a key file durably (mode 0600). `exclusive` refuses to replace an existing file. */
export declare function writeKeyFile(file: string, key: Buffer, exclusive: boolean): void;
/** Moves the rotated key into place (atomic rename on one file system). */
export declare function promoteNextKey(file: string): void;
export declare const keyFileExists: (file: string) => boolean;
