export declare const keyListCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
