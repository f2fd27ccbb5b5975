import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run build:web` (run by `npm ci` through the prepare script) writes web/dist, which
// `custops serve` serves at /. `npm run dev:web` proxies the API to a running `custops serve`.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Keeps the Content-Security-Policy strict: no inline module preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: { '/api': process.env.CUSTOPS_URL ?? 'http://127.0.0.1:8080' },
  },
});
