import { defineConfig, type Plugin } from "vite";
import { fileURLToPath } from "node:url";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The page may talk to its own origin only (no upload, ever). Worker and wasm are same-origin
// files; 'wasm-unsafe-eval' allows compiling WebAssembly without allowing eval of JS.
// The dev server additionally needs its HMR websocket.
function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    `connect-src 'self'${dev ? " ws://127.0.0.1:* ws://localhost:*" : ""}`,
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join("; ");
}

function cspPlugin(): Plugin {
  let dev = false;
  return {
    name: "dpmargin-csp",
    configResolved(config) {
      dev = config.command === "serve" && !config.isProduction;
    },
    transformIndexHtml() {
      return [{
        tag: "meta",
        attrs: { "http-equiv": "Content-Security-Policy", content: contentSecurityPolicy(dev) },
        injectTo: "head-prepend",
      }];
    },
  };
}

export default defineConfig({
  root: here("."),
  // Relative asset URLs: the build works from any sub-path of any static server.
  base: "./",
  resolve: {
    alias: { dpmargin: here("../dist/index.js") },
  },
  worker: { format: "es" },
  build: {
    outDir: here("dist"),
    emptyOutDir: true,
    target: "es2022",
  },
  plugins: [cspPlugin()],
  preview: { host: "127.0.0.1" },
});
