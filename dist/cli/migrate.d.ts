export declare const migrateCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
