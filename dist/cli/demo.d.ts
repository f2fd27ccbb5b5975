export declare const demoCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
