/**
 * The columns the seed writes, in insert order, with their PostgreSQL types: bulk inserts on
 * PostgreSQL send one typed array per column (`unnest($1::bigint[], …)`), so a batch is one
 * statement of a fixed shape however many rows it holds.
 */
export type ColumnType = 'bigint' | 'text' | 'boolean';
export interface TableShape {
    table: SeedTable;
    columns: readonly (readonly [name: string, type: ColumnType])[];
}
export type SeedTable = 'users' | 'orgs' | 'contacts' | 'deals' | 'deal_status_history' | 'deal_activities' | 'tickets' | 'support_logs';
export declare const SHAPES: Record<SeedTable, TableShape>;
/** One row as values in the shape's column order. */
export type Row = (string | number | boolean | null)[];
