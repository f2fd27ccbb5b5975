// Frozen in time, as the migrations that import it (2026-11-28T0300_daily_rollup_moves and
// 2026-11-28T0310_counter_statements_postgres): never edited once released, since editing it would
// change what those migrations do. It imports no application code.

/**
 * First day (days since 1970-01-01) of the UTC calendar month holding day `d`: the integer
 * civil-from-days algorithm (H. Hinnant) as the nested sub-selects migration 2026-11-21T0160 wrote
 * into the rollup triggers, character for character (2026-11-28T0310 finds them by this text).
 */
export const monthStart = (d: string) =>
  `(select ${d} - (doy - (153 * ((5 * doy + 2) / 153) + 2) / 5) from (select doe - (365 * yoe + yoe / 4 - yoe / 100) as doy from ` +
  `(select doe, (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 as yoe from ` +
  `(select (${d} + 719468) - ((${d} + 719468) / 146097) * 146097 as doe) as a) as b) as c)`;

/** January 1st (days since 1970-01-01) of the UTC year holding day `d`, as 2026-11-21T0160 wrote it. */
export const yearStart = (d: string) =>
  `(select era2 * 146097 + yoe2 * 365 + yoe2 / 4 - yoe2 / 100 + 306 - 719468 from (select yp - (yp / 400) * 400 as yoe2, yp / 400 as era2 from ` +
  `(select yoe + era * 400 + (case when (5 * doy + 2) / 153 >= 10 then 1 else 0 end) - 1 as yp from ` +
  `(select doe - (365 * yoe + yoe / 4 - yoe / 100) as doy, yoe, era from ` +
  `(select doe, era, (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 as yoe from ` +
  `(select z - (z / 146097) * 146097 as doe, z / 146097 as era from (select ${d} + 719468 as z) as s0) as s1) as s2) as s3) as s4) as s5)`;
