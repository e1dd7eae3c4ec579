import path from "node:path";
import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The monorepo root (one lockfile there): pins file tracing and Turbopack to it instead of
  // letting Next guess from lockfiles.
  outputFileTracingRoot: path.join(import.meta.dirname, "../.."),
  turbopack: { root: path.join(import.meta.dirname, "../..") },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
