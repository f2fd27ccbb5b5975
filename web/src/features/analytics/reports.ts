import type { paths } from '../../../../src/client/index.ts';

/** The six reports' response bodies, as the OpenAPI document types them. */
type Body<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } } ? B : never;
export type SalesReport = Body<'/api/v1/analytics/sales'>;
export type SupportReport = Body<'/api/v1/analytics/support'>;
export type TeamReport = Body<'/api/v1/analytics/team'>;
export type CustomersReport = Body<'/api/v1/analytics/customers'>;
export type ActivityReport = Body<'/api/v1/analytics/activity'>;
export type TrendsReport = Body<'/api/v1/analytics/trends'>;
