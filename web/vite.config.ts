import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { earlyRegister } from './early-register.ts';
import { emojiCategories } from './emoji-categories.ts';

/**
 * The web app's build: content-hashed files under /static/app/ (the gateway serves them with a
 * year's cache; the shell, index.html, is never cached and carries the CSRF token).
 */
export default defineConfig({
  base: '/static/app/',
  plugins: [react(), emojiCategories(), earlyRegister()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 2048,
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `vite` in development: the API, pages and files come from the local gateway.
    proxy: Object.fromEntries(['/json', '/api', '/login', '/accounts', '/user_uploads', '/user_avatars', '/avatar', '/static/generated'].map((p) => [p, 'http://127.0.0.1:9991'])),
  },
});
