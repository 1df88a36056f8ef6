// The app's security headers: one home, read by the Vite config (the page's <meta>, the
// `_headers` file of the build, `vite preview` — what `npm start` serves) and by the end-to-end
// tests' static server, so every browser test runs under the policy users get.
//
// The page may talk to its own origin only (no upload, ever). Worker and wasm are same-origin
// files; 'wasm-unsafe-eval' allows compiling WebAssembly without allowing eval of JS (the
// module's glue is built with DYNAMIC_EXECUTION=0, wasm/CMakeLists.txt, so it evaluates no
// strings). The dev server additionally needs its HMR websocket.

/** @param {boolean} dev @returns {string} */
export function contentSecurityPolicy(dev) {
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

/** The response headers of every file of the built app. @returns {Record<string, string>} */
export function securityHeaders() {
  return {
    "Content-Security-Policy": contentSecurityPolicy(false),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  };
}
