import type { Config } from '../config.ts';
import type { Db, Trx } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { createApiKey } from '../modules/api-keys/api-keys.service.ts';
import { hashPassword } from '../lib/crypto.ts';
import { generatePassword } from '../modules/sessions/passwords.service.ts';
import { ACCOUNT_NAME, AUDIENCES, FIRST_NAMES, LAST_NAMES, ORGS, TEAM, TEAM_DOMAIN, TITLES } from './catalog.ts';
import { Random } from './random.ts';
import { DAY_MS, DEMO_WINDOW_DAYS, type DemoOrg, type DemoUser, type DemoWorld } from './world.ts';
import { seedDeals } from './sales.ts';
import { seedTickets } from './support.ts';

export interface DemoResult {
  account: { id: number; name: string };
  key: { id: number; name: string; scopes: string[]; rate_limit_per_minute: number | null; secret: string };
  /** A web console sign-in: the demo account's owner with a password generated for this run. */
  console: { email: string; password: string };
}

/**
 * `custops demo`: one account with a realistic, deterministic data set (the same seed gives the
 * same records, placed relative to now), written in one transaction straight through Kysely,
 * plus a full-access API key.
 */
export async function seedDemo(deps: { db: Db; clock: Clock; config: Config }, options: { seed: number }): Promise<DemoResult> {
  const rnd = new Random(options.seed);
  const now = deps.clock.now();
  const password = generatePassword();
  const passwordHash = await hashPassword(password, deps.config.passwordCost);
  return deps.db.transaction().execute(async (trx) => {
    const account = await trx
      .insertInto('accounts')
      .values({ name: ACCOUNT_NAME, created_at: now - (DEMO_WINDOW_DAYS + 90) * DAY_MS })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    const world: DemoWorld = { trx, rnd, now, accountId: account.id, users: await seedTeam(trx, account.id, now), orgs: [] };
    const owner = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('account_id', '=', account.id)
      .where('role', '=', 'owner')
      .returning('email')
      .executeTakeFirstOrThrow();
    world.orgs = await seedOrgs(world);
    await seedDeals(world);
    await seedTickets(world);
    const key = await createApiKey({ db: trx, clock: deps.clock }, { accountId: account.id, name: 'demo', scopes: ['*'], rateLimitPerMinute: null });
    return { account: { id: account.id, name: account.name }, key, console: { email: owner.email, password } };
  });
}

async function seedTeam(trx: Trx, accountId: number, now: number): Promise<DemoUser[]> {
  const users: DemoUser[] = [];
  for (const [i, member] of TEAM.entries()) {
    const email = `${member.name.toLowerCase().replace(' ', '.')}@${TEAM_DOMAIN}`;
    const created = now - (DEMO_WINDOW_DAYS + 80 - i * 5) * DAY_MS;
    const { id } = await trx
      .insertInto('users')
      .values({
        account_id: accountId,
        email,
        email_lc: email,
        display_name: member.name,
        role: member.role,
        is_active: member.active,
        support_enabled: member.support,
        password_hash: null,
        created_at: created,
        updated_at: member.active ? created : now - 20 * DAY_MS,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    users.push({ id, active: member.active, sales: member.sales, support: member.support });
  }
  return users;
}

async function seedOrgs(w: DemoWorld): Promise<DemoOrg[]> {
  const { trx, rnd, now, accountId } = w;
  const audiences: number[] = [];
  for (const name of AUDIENCES) {
    const created = now - (DEMO_WINDOW_DAYS + 60) * DAY_MS;
    audiences.push(
      (await trx.insertInto('marketing_audiences').values({ account_id: accountId, name, created_at: created }).returning('id').executeTakeFirstOrThrow()).id,
    );
  }
  const orgs: DemoOrg[] = [];
  for (const [i, name] of ORGS.entries()) {
    const created = now - (DEMO_WINDOW_DAYS + rnd.int(1, 60)) * DAY_MS;
    const domain = `${name.split(' ')[0].toLowerCase()}.example`;
    const org = await trx
      .insertInto('orgs')
      .values({ account_id: accountId, name, name_lc: name.toLowerCase(), domain: rnd.chance(0.85) ? domain : null, created_at: created, updated_at: created })
      .returning('id')
      .executeTakeFirstOrThrow();
    const links = [{ source_app: 'billing', external_org_id: `cus_${rnd.token(14)}` }];
    if (i % 2 === 0) links.push({ source_app: 'helpdesk', external_org_id: `hd-${1000 + i * 37}` });
    await trx
      .insertInto('org_external_ids')
      .values(links.map((l) => ({ account_id: accountId, org_id: org.id, ...l, created_at: created })))
      .execute();

    const contactIds: number[] = [];
    const names = rnd.sample(FIRST_NAMES, 3);
    for (let c = rnd.int(2, 3); c > 0; c--) {
      const first = names[c - 1];
      const last = rnd.pick(LAST_NAMES);
      const fullName = `${first} ${last}`;
      // ASCII local part: strip the accents of names like Lucía or Zoë.
      const email = `${first}.${last}@${domain}`
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '');
      const at = created + rnd.int(0, 30) * DAY_MS;
      const contact = await trx
        .insertInto('contacts')
        .values({
          account_id: accountId,
          org_id: org.id,
          name: fullName,
          name_lc: fullName.toLowerCase(),
          email,
          email_lc: email,
          phone: rnd.chance(0.6) ? `+1-555-${String(rnd.int(100, 999))}-${String(rnd.int(1000, 9999))}` : null,
          title: rnd.pick(TITLES),
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      contactIds.push(contact.id);
      const chosen = rnd.sample(audiences, rnd.int(0, 2));
      if (chosen.length) {
        await trx
          .insertInto('contact_audiences')
          .values(chosen.map((audience_id) => ({ account_id: accountId, contact_id: contact.id, audience_id, created_at: at })))
          .execute();
      }
    }
    orgs.push({ id: org.id, name, contactIds });
  }
  return orgs;
}
