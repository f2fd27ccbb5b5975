import type { Command } from './command.ts';
import { accountCreateCommand } from './account-create.ts';
import { backupCommand } from './backup.ts';
import { demoCommand } from './demo.ts';
import { keyCreateCommand } from './key-create.ts';
import { keyListCommand } from './key-list.ts';
import { keyRevokeCommand } from './key-revoke.ts';
import { listenCommand } from './listen.ts';
import { secretKeyRotateCommand } from './secret-key-rotate.ts';
import { mcpCommand } from './mcp.ts';
import { migrateCommand } from './migrate.ts';
import { seedCommand } from './seed.ts';
import { serveCommand } from './serve.ts';
import { workerCommand } from './worker.ts';
import { userCreateCommand } from './user-create.ts';
import { userSetPasswordCommand } from './user-set-password.ts';
import { webhooksPurgeCommand } from './webhooks-purge.ts';

/**
 * Every `custops` command, in the order `custops help` lists them. A new command is one file
 * beside this one (see command.ts: `defineCommand`) and one entry here.
 */
export const commands: readonly Command[] = [
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
  webhooksPurgeCommand,
  mcpCommand,
];
