/**
 * `custops secret-key rotate`: checks the current key against the database (as `serve` does), then
 * re-encrypts every stored secret under a new one. Run it with serve and worker stopped.
 */
export declare const secretKeyRotateCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
