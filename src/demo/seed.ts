import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';

export interface DemoResult {
  account: { id: number; name: string };
  key: { id: number; name: string; scopes: string[]; rate_limit_per_minute: number | null; secret: string };
}

export async function seedDemo(_deps: { db: Db; clock: Clock; config: Config }, _options: { seed: number }): Promise<DemoResult> {
  throw new Error('demo data generator not written yet');
}
