import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';

import type { TSchema } from 'typebox';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const userSchemas: TSchema[] = [];

export function registerUserRoutes(_app: App, _deps: ModuleDeps): void {}
