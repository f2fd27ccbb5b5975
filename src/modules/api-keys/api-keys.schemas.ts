import { Type, type Static } from 'typebox';
import { Id, ListOf, Nullable, NullableTimestamp, PageQuery, Timestamp } from '../../http/schemas.ts';
import { SCOPES } from './scopes.ts';

const ScopeList = Type.Array(Type.Enum([...SCOPES]), { description: 'Granted scopes; `*` is full access, `read` every `…:read` scope.' });

export const ApiKey = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the secret, to tell keys apart. The secret itself is never listed.' }),
    scopes: ScopeList,
    rate_limit_per_minute: Nullable(Type.Integer({ minimum: 1, description: 'Its own limit; null uses the server default.' })),
    created_at: Timestamp(),
    last_used_at: NullableTimestamp('The latest request with the key (recorded at most once a minute).'),
    revoked_at: NullableTimestamp('When it was revoked; a revoked key is refused with 401.'),
  },
  { $id: 'ApiKey', title: 'ApiKey', description: 'An API key of the account (never its secret).' },
);
export type ApiKeyView = Static<typeof ApiKey>;

export const ApiKeyWithSecret = Type.Object(
  { ...ApiKey.properties, secret: Type.String({ description: 'The key (`cok_…`): shown only in this answer; store it now.' }) },
  { title: 'ApiKeyWithSecret' },
);

export const ApiKeyList = ListOf(Type.Ref('ApiKey'), 'ApiKeyList');

export const ApiKeyListQuery = Type.Object({
  include_revoked: Type.Optional(Type.Enum(['1', '0', 'true', 'false'], { description: '`1`: revoked keys too (the default); `0`: active keys only.' })),
  ...PageQuery,
});

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Array(Type.Enum([...SCOPES]), {
      minItems: 1,
      maxItems: SCOPES.length,
      uniqueItems: true,
      description: 'At least one scope; `["*"]` for full access.',
    }),
    rate_limit_per_minute: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Requests per minute; null or absent: the server default.' })),
    ),
  },
  { additionalProperties: false },
);
export type CreateApiKeyInput = Static<typeof CreateApiKeyBody>;
