/**
 * `custops seed`: fills an existing account with `--deals` deals and everything around them
 * (src/seed/plan.ts). Prints one JSON line of counts on stdout, progress on stderr. Bad input is
 * one line on stderr and exit 2, checked before anything is written.
 */
export declare const seedCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
