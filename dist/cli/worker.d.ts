export declare const workerCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
