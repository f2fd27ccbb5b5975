import { accountCreateCommand } from './account-create.js';
import { backupCommand } from './backup.js';
import { demoCommand } from './demo.js';
import { keyCreateCommand } from './key-create.js';
import { keyListCommand } from './key-list.js';
import { keyRevokeCommand } from './key-revoke.js';
import { listenCommand } from './listen.js';
import { secretKeyRotateCommand } from './secret-key-rotate.js';
import { migrateCommand } from './migrate.js';
import { seedCommand } from './seed.js';
import { serveCommand } from './serve.js';
import { workerCommand } from './worker.js';
import { userCreateCommand } from './user-create.js';
import { userSetPasswordCommand } from './user-set-password.js';
/**
 * Every `custops` command, in the order `custops help` lists them. A new command is one file
 * beside this one (see command.ts: `defineCommand`) and one entry here.
 */
export const commands = [
    migrateCommand,
    serveCommand,
    workerCommand,
    accountCreateCommand,
    keyCreateCommand,
    keyRevokeCommand,
    userCreateCommand,
    userSetPasswordCommand,
    keyListCommand,
    secretKeyRotateCommand,
    listenCommand,
    demoCommand,
    seedCommand,
    backupCommand,
];
