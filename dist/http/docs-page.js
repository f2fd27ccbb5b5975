import swaggerUi from '@fastify/swagger-ui';
const DOCUMENT_URL = '/api/v1/openapi.json';
// The custops mark: a rounded square with a check, and the wordmark. Plain SVG, no external fonts.
const MARK = `<rect x="2" y="2" width="36" height="36" rx="8" fill="#0f766e"/><path d="M11 21l6 6 12-14" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>`;
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="170" height="40" viewBox="0 0 170 40">${MARK}<text x="48" y="28" font-family="system-ui,sans-serif" font-size="24" font-weight="700" fill="#fff">custops</text></svg>`;
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">${MARK}</svg>`;
/**
 * `/docs`: Swagger UI titled and branded custops, reading the same document integrators fetch
 * (`/api/v1/openapi.json`; the plugin's own `/docs/json` copy stays as an alias). The plugin always
 * sets `url` to its copy; `urls` takes precedence in the standalone layout, so it names ours.
 */
export async function registerDocsPage(app) {
    await app.register(swaggerUi, {
        routePrefix: '/docs',
        staticCSP: true,
        uiConfig: { urls: [{ url: DOCUMENT_URL, name: 'custops API v1' }], deepLinking: true, displayOperationId: true },
        logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/docs', target: '_self' },
        theme: {
            title: 'custops API reference',
            favicon: [{ filename: 'custops.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON_SVG) }],
            css: [{ filename: 'custops.css', content: '.swagger-ui .topbar { background-color: #134e4a; }' }],
        },
    });
}
