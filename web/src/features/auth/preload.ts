import type { AnyRouter } from '@tanstack/react-router';

/**
 * Fetches the code of the page at `to` and of the layouts around it (the signed-in shell) without
 * rendering or loading data, so that signing in shows the page without waiting for its chunks:
 * the sign-in page calls it once it is idle (the visitor is typing) and again on submit, while the
 * server checks the password. Loading a chunk twice is a no-op; a failure here is left to the
 * navigation, which loads the chunks again and shows the route's error.
 */
export function preloadPageCode(router: AnyRouter, to: string): void {
  try {
    for (const match of router.matchRoutes(router.buildLocation({ to }))) {
      void router.loadRouteChunk(router.routesById[match.routeId])?.catch(() => undefined);
    }
  } catch {
    // An address the router cannot match is the navigation's to report, not signing in's.
  }
}
