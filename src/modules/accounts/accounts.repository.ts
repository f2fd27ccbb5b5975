import type { Executor } from '../../db/database.ts';

export function findAccount(db: Executor, id: number) {
  return db.selectFrom('accounts').select(['id', 'name', 'created_at']).where('id', '=', id).executeTakeFirst();
}

export function insertAccount(db: Executor, row: { name: string; created_at: number }) {
  return db.insertInto('accounts').values(row).returning(['id', 'name']).executeTakeFirstOrThrow();
}
