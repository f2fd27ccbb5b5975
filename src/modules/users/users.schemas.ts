import { Type, type Static } from 'typebox';
import { Id, ListOf, PageQuery, SortQuery, Timestamp } from '../../http/schemas.ts';

export const ROLES = ['owner', 'admin', 'member'] as const;

export const User = Type.Object(
  {
    id: Id(),
    email: Type.String({ format: 'email' }),
    display_name: Type.String(),
    role: Type.Enum([...ROLES]),
    is_active: Type.Boolean(),
    support_enabled: Type.Boolean({ description: 'Whether the user works support tickets.' }),
    created_at: Timestamp(),
  },
  { $id: 'User', title: 'User', description: 'A team member of the account. The password is never returned.' },
);
export type UserView = Static<typeof User>;

export const USER_SORTS = ['created_at', 'id'] as const;

export const UserListQuery = Type.Object({
  active_only: Type.Optional(
    Type.Enum(['1', '0', 'true', 'false'], { description: '`1` (or `true`): only active users; `0` (or `false`, the default): all users.' }),
  ),
  ...SortQuery([...USER_SORTS]),
  ...PageQuery,
});

export const UserList = ListOf(Type.Ref('User'), 'UserList');

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ format: 'email', minLength: 3, maxLength: 254, description: 'Unique in the account, case-insensitively.' }),
    display_name: Type.String({ minLength: 1, maxLength: 200 }),
    role: Type.Optional(Type.Enum([...ROLES], { default: 'member' })),
    is_active: Type.Optional(Type.Boolean({ default: true })),
    support_enabled: Type.Optional(Type.Boolean({ default: false })),
    password: Type.Optional(
      Type.String({
        minLength: 8,
        maxLength: 256,
        description: 'Console password (stored as a scrypt hash, never returned). Without it the user cannot log in yet.',
      }),
    ),
    idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Alternative to the Idempotency-Key header.' })),
  },
  { additionalProperties: false },
);
export type CreateUserInput = Static<typeof CreateUserBody>;
