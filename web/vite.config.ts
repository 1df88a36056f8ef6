import { defineConfig, type Plugin } from "vite";
import { fileURLToPath } from "node:url";
import { contentSecurityPolicy, securityHeaders } from "./security.mjs";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The policy is written in index.html as a <meta http-equiv> (so it holds on any static host)
// and in the built folder's `_headers` (Netlify, Cloudflare Pages and others send it as a
// header). This plugin keeps both equal to contentSecurityPolicy(false): the build fails if
// index.html's meta differs; the dev server swaps in the dev policy (HMR websocket).
const META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)" \/>/;

function cspPlugin(): Plugin {
  let dev = false;
  return {
    name: "dpmargin-csp",
    configResolved(config) {
      dev = config.command === "serve" && !config.isProduction;
    },
    transformIndexHtml(html) {
      const found = META.exec(html);
      if (!found) throw new Error("index.html must hold the Content-Security-Policy <meta http-equiv>");
      if (found[1] !== contentSecurityPolicy(false)) {
        throw new Error(`index.html's Content-Security-Policy differs from vite.config.ts's:\n${found[1]}\n${contentSecurityPolicy(false)}`);
      }
      return dev ? html.replace(found[1], contentSecurityPolicy(true)) : html;
    },
    generateBundle() {
      this.emitFile({
        type: "asset", fileName: "_headers",
        source: "# Headers for static hosts that read _headers (Netlify, Cloudflare Pages, …).\n/*\n" +
          Object.entries(securityHeaders()).map(([k, v]) => `  ${k}: ${v}\n`).join(""),
      });
    },
  };
}

export default defineConfig({
  root: here("."),
  // Relative asset URLs: the build works from any sub-path of any static server.
  base: "./",
  resolve: {
    // "dpmargin/explain": the package's texts alone (explain.ts imports nothing), so the page's
    // bundle takes the wording without the engine (the worker imports "dpmargin").
    alias: [
      { find: /^dpmargin$/, replacement: here("../dist/index.js") },
      { find: /^dpmargin\/explain$/, replacement: here("../dist/explain.js") },
    ],
  },
  worker: { format: "es" },
  build: {
    outDir: here("dist"),
    emptyOutDir: true,
    target: "es2022",
  },
  plugins: [cspPlugin()],
  // `npm start` serves the build with vite preview: the policy as a response header too, so the
  // workers (whose CSP comes from their own response, not the page's meta) are covered.
  preview: {
    host: "127.0.0.1",
    headers: securityHeaders(),
  },
});
