import { Type, type Static } from 'typebox';
import { ROLES } from '../users/users.schemas.ts';

export const UpdateUserBody = Type.Object(
  {
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    role: Type.Optional(Type.Enum([...ROLES], { description: 'Only an owner may make or change an owner; the last active owner keeps the role.' })),
    is_active: Type.Optional(Type.Boolean({ description: '`false` deactivates the user and ends their console sessions at once; `true` reactivates.' })),
    support_enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateUserInput = Static<typeof UpdateUserBody>;
