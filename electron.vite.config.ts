import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { devRendererCsp } from './scripts/renderer-csp';

// The shared modules (contract, manifest, trace helpers) only declare schemas, constants and
// functions: a module none of whose exports the window uses is left out, so importing one constant
// from the contract's index does not bring every schema (and the schema library) into the first
// screen's JavaScript. The bundler cannot know it by itself: a schema is built by a function call.
function sharedWithoutSideEffects(): Plugin {
  return {
    name: 'shared-without-side-effects',
    transform(code, id) {
      return id.includes('/src-shared/') ? { code, map: null, moduleSideEffects: false } : undefined;
    },
  };
}

// electron-vite finds only src/main, src/preload, src/renderer by itself; name our entries.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The trace index's worker thread is its own file next to the main bundle (trace/indexer.ts).
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/shell/electron/main.ts'),
          'trace-index-worker': resolve(__dirname, 'src-main/trace/index-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'src-main/shell/electron/preload.ts') } },
    },
  },
  renderer: {
    root: 'src-renderer',
    // devRendererCsp: the dev server's page admits React's refresh preamble; builds are untouched.
    plugins: [react(), devRendererCsp(), sharedWithoutSideEffects()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      rollupOptions: {
        input: resolve(__dirname, 'src-renderer/index.html'),
        // React's wrappers build a component or a context by a function call, which the bundler
        // keeps in case it has side effects: declared pure, a wrapped component nobody renders
        // (the canvas library exports many) is left out of the window's JavaScript.
        treeshake: { manualPureFunctions: ['memo', 'forwardRef', 'createContext'] },
      },
    },
  },
});
