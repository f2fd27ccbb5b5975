export declare const accountCreateCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
