import { tsupConfig } from "../../tooling/tsup.base";

// Partners install this package: ESM and CommonJS with their declarations, for Node 20 and later (no browser build: keys stay server-side).
// The package is deliberately not "type": "module": esbuild then reads src/ as TypeScript compiled
// to either format rather than as Node-native ESM, so the CommonJS build honours a dependency's
// `__esModule` marker (openapi-fetch's default export is `exports.default`; the Node-mode interop
// of a "type": "module" package handed over the whole module object and `new Client()` threw).
// tsup's extensions for such a package: index.mjs with index.d.mts, index.js with index.d.ts (CommonJS).
export default tsupConfig({ entry: { index: "src/index.ts" }, format: ["esm", "cjs"], dts: true, target: "node20" });
