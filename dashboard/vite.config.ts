import { defineConfig } from 'vite';

/** The dashboard, built into dashboard/dist, which the hub serves at `/`. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true },
});
