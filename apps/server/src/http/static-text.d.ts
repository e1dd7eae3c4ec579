/** A static file's text (tooling/raw-text-plugin.ts in the build, Vite's own `?raw` in tests). */
declare module "*?raw" {
  const text: string;
  export default text;
}
