import { z } from "zod";

/**
 * The console server's configuration, validated once at start (instrumentation.ts) like the
 * API's: a bad value stops it with a clear message instead of failing on the first request.
 * The only module that reads process.env (server.mjs reads its own PORT, HOST and TRUST_PROXY
 * before Next is loaded).
 */
const envSchema = z.object({
  /** The API's admin listener (its tRPC endpoint is `${ADMIN_API_URL}/trpc`); the run command points it at ADMIN_API_PORT. */
  ADMIN_API_URL: z
    .url()
    .default("http://127.0.0.1:3001")
    .transform((url) => url.replace(/\/+$/, "")),
  /** Marks the console's cookies Secure: set it when the console is served over HTTPS. */
  ADMIN_COOKIE_SECURE: z.enum(["true", "false"]).default("false"),
  /**
   * Signs the visitor address sent to the API (lib/visitor-signature.ts): the key
   * `pnpm cli console:forwarding-key` prints on the API's host, derived from its SECRET_KEY; the
   * run command sets it. Unset, the API counts every sign-in attempt against the console's own address.
   */
  ADMIN_FORWARDING_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "the 43 characters `pnpm cli console:forwarding-key` prints on the API's host")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

export type ConsoleEnv = z.infer<typeof envSchema>;

export function parseConsoleEnv(source: Record<string, string | undefined>): ConsoleEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n");
    throw new Error(`invalid console configuration:\n${problems}`);
  }
  return parsed.data;
}

let loaded: ConsoleEnv | undefined;

export function env(): ConsoleEnv {
  loaded ??= parseConsoleEnv(process.env);
  return loaded;
}
