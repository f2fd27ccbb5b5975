import { call, createHarness, type Harness } from './harness.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A harness (SQLite) and the OpenAPI document it serves, for a suite's `before`; the suite closes the harness. */
export async function servedDocument(): Promise<{ h: Harness; doc: any }> {
  const h = await createHarness('sqlite');
  return { h, doc: (await call(h, 'GET', '/api/v1/openapi.json')).json() };
}

/** Every operation of the document, named `METHOD /path`. */
export function operations(doc: any): { id: string; op: any }[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
  );
}
