export declare const keyCreateCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
