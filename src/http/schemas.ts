import { Type, type TSchema } from 'typebox';
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from '../lib/pagination.ts';

/** Shared schemas, each registered once by id so the OpenAPI document references rather than repeats them. */
export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Machine-readable error code.' }),
    message: Type.String({ description: 'Human-readable explanation.' }),
    fields: Type.Optional(Type.Object({}, { additionalProperties: Type.String(), description: 'For validation errors: field name → reason.' })),
    required_scopes: Type.Optional(Type.Array(Type.String(), { description: 'For a missing scope: the scopes that would grant access.' })),
    request_id: Type.String({ description: 'The X-Request-Id of this request.' }),
  },
  { $id: 'ErrorResponse', title: 'Error', additionalProperties: true },
);

export const PaginationSchema = Type.Object(
  {
    page: Type.Integer(),
    per_page: Type.Integer(),
    total: Type.Integer(),
    pages: Type.Integer(),
    has_next: Type.Boolean(),
    has_prev: Type.Boolean(),
  },
  { $id: 'Pagination', title: 'Pagination' },
);

export const Timestamp = (description?: string) => Type.String({ format: 'date-time', description: description ?? 'ISO-8601 UTC with milliseconds.' });
export const NullableTimestamp = (description?: string) => Type.Union([Timestamp(description), Type.Null()]);
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 9007199254740991, description });

/** A date bound: `YYYY-MM-DD` (a whole UTC day) or an ISO-8601 date-time with or without Z. Checked by parseDateBound. */
export const DateParam = (description: string) => Type.String({ description, examples: ['2026-11-01', '2026-11-01T09:30:00Z'] });

/** The title search and creation window deals and tickets are filtered by (lib/titled-records.ts). */
export const TitleAndCreatedQuery = {
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of the title.' })),
  created_from: Type.Optional(DateParam('Created at or after (inclusive).')),
  created_to: Type.Optional(DateParam('Created at or before (inclusive; a bare date covers the whole day).')),
};

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1.' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE, description: `Items per page, 1 to ${MAX_PER_PAGE}.` })),
};

export const SortQuery = <const T extends string[]>(fields: [...T]) => ({
  sort: Type.Optional(Type.Enum(fields, { default: 'created_at', description: 'Sort field; ties are broken by id in the same direction.' })),
  direction: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'desc', description: 'Sort direction.' })),
});

export const IdParams = Type.Object({ id: Id('Resource id.') });

export function ListOf<T extends TSchema>(item: T, title: string) {
  return Type.Object({ data: Type.Array(item), pagination: Type.Ref('Pagination') as unknown as typeof PaginationSchema }, { title });
}

/** Opaque caller-owned JSON object. */
export const Metadata = Type.Object({}, { additionalProperties: true, description: 'Opaque JSON object, stored and returned as given.' });
