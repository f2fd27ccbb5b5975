import type { DealStatus } from '../../db/schema.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { type CreateDealInput, type DealView, type PatchDealInput } from './deals.schemas.ts';
type Deps = Pick<ModuleDeps, 'db' | 'clock' | 'notifyEvents'>;
/** Who makes the change: API keys act as nobody (userId null); the console passes its user. */
export interface Actor {
    accountId: number;
    userId: number | null;
}
export declare const isOpen: (s: DealStatus) => boolean;
export declare function createDeal(deps: Deps, actor: Actor, input: CreateDealInput): Promise<DealView>;
export declare function patchDeal(deps: Deps, actor: Actor, id: number, input: PatchDealInput): Promise<DealView>;
export {};
