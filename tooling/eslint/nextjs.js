import nextPlugin from "@next/eslint-plugin-next";
import { defineConfig } from "eslint/config";

/** Next.js's own rules for the console (apps/admin): its recommended and Core Web Vitals sets. */
export const nextjsConfig = defineConfig({
  name: "@mga/eslint-config/nextjs",
  files: ["**/*.{ts,tsx}"],
  plugins: { "@next/next": nextPlugin },
  rules: {
    ...nextPlugin.configs.recommended.rules,
    ...nextPlugin.configs["core-web-vitals"].rules,
    // Checks <a> links to pages/ routes; the console has only the App Router (app/), and the rule
    // looks for pages/ from the working directory, warning on every run started elsewhere.
    "@next/next/no-html-link-for-pages": "off",
  },
});
