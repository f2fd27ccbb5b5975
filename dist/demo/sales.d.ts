import { type DemoWorld } from './world.ts';
/** Deals in every status with their status history, lost reasons and timeline activities. */
export declare function seedDeals(w: DemoWorld): Promise<void>;
