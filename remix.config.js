/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Bundle the ESM-only chart libraries into the server build so nivo renders as SVG without JavaScript.
  serverDependenciesToBundle: [/^@nivo\//, /^d3-/, /^internmap/, /^@react-spring\//, /^react-virtualized-auto-sizer/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
