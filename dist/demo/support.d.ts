import { type DemoWorld } from './world.ts';
/** Tickets open, pending and closed, each with its log: the first entry is the customer's report. */
export declare function seedTickets(w: DemoWorld): Promise<void>;
