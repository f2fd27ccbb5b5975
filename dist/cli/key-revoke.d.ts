export declare const keyRevokeCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
