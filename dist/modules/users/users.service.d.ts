import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './users.repository.ts';
import type { CreateUserInput, UserView } from './users.schemas.ts';
export declare function toUserView(r: repo.PublicUserRow): UserView;
export declare function listUsers(db: Executor, accountId: number, filter: repo.UserFilter, order: repo.UserOrder, page: PageRequest): Promise<ListResult<UserView>>;
export declare function getUser(db: Executor, accountId: number, id: number): Promise<UserView>;
export declare function createUser(deps: {
    db: Db;
    clock: Clock;
}, accountId: number, input: CreateUserInput): Promise<UserView>;
