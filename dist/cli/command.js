import { openDatabase, timeoutsOf } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
/** Keeps each command's option types while letting the registry hold them side by side. */
export function defineCommand(command) {
    return command;
}
/** A mistake in the command line: exit code 2 and a pointer to the usage. */
export class UsageError extends Error {
}
export function positiveInt(value, flag) {
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1)
        throw new UsageError(`${flag} must be a positive whole number`);
    return Number(value);
}
export function print(ctx, value) {
    ctx.out(JSON.stringify(value));
}
/** Opens the configured database, brings it to the latest migration, runs `fn`, and closes it. */
export async function withDatabase(config, fn) {
    const database = openDatabase(config.databaseUrl, { ...timeoutsOf(config), poolSize: 2 });
    try {
        await migrateToLatest(database.db);
        return await fn(database);
    }
    finally {
        await database.close();
    }
}
/** The usage line of a command, built from its options. */
export function usageLine(command) {
    const parts = Object.entries(command.options).map(([flag, spec]) => {
        const text = spec.type === 'string' ? `--${flag} ${spec.value}` : `--${flag}`;
        return spec.type === 'string' && spec.required ? text : `[${text}]`;
    });
    return ['custops', command.name, ...parts].join(' ');
}
/** `custops <command> --help`: the usage line and one line per option. */
export function commandHelp(command) {
    const lines = [usageLine(command), '', command.summary];
    const options = Object.entries(command.options);
    if (options.length > 0) {
        lines.push('', 'options:');
        for (const [flag, spec] of options) {
            const left = spec.type === 'string' ? `--${flag} ${spec.value}` : `--${flag}`;
            lines.push(`  ${left.padEnd(24)} ${spec.help}`);
        }
    }
    lines.push(`  ${'--help'.padEnd(24)} this text`);
    return lines.join('\n');
}
