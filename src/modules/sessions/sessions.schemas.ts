import { Type, type Static } from 'typebox';
import { Id, Timestamp } from '../../http/schemas.ts';
import { User } from '../users/users.schemas.ts';

export const Session = Type.Object(
  {
    // The user's fields inline: a $ref to User here fails to resolve in the response serializer.
    user: Type.Object(User.properties, { title: 'SessionUser', description: 'The signed-in team user.' }),
    account_id: Id('The account the user belongs to.'),
    csrf_token: Type.String({ description: 'Send it as `X-CSRF-Token` on every cookie-authenticated POST, PUT, PATCH and DELETE.' }),
    idle_expires_at: Timestamp('The session ends at this time unless a request comes first (12 hours after the last one).'),
    expires_at: Timestamp('The absolute end: 7 days after sign-in.'),
  },
  { title: 'Session', description: 'The signed-in console session.' },
);
export type SessionView = Static<typeof Session>;

export const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
    account_id: Type.Optional(Id('Only when one email belongs to users of several accounts: the account to sign in to.')),
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 256 }),
    new_password: Type.String({ minLength: 8, maxLength: 256, description: 'At least 8 characters.' }),
  },
  { additionalProperties: false },
);
