export declare const serveCommand: import("./command.ts").Command<import("./command.ts").OptionSpecs>;
