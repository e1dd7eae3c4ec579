import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (installed by scripts/test.sh when missing), driven by playwright-core. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The features playwright-core 1.65 disables by default (its chromiumSwitches), as one
 * argument: `ignoreDefaultArgs` matches whole arguments, so this is how one of them is put back.
 */
const PLAYWRIGHT_DISABLED_FEATURES =
  "--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion";

/**
 * `thirdPartyStorage`:
 * - `partitioned` (default): like Chrome as users have it, a cross-site iframe gets storage
 *   of its own per top-level site (playwright-core turns that off; it is put back here).
 * - `blocked`: playwright-core's default, which denies storage to third-party frames, like a
 *   browser that blocks third-party cookies and storage.
 */
export async function launchBrowser(options: { thirdPartyStorage?: "partitioned" | "blocked" } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: scripts/test.sh installs Debian's chromium package`);
  const partitioned = (options.thirdPartyStorage ?? "partitioned") === "partitioned";
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...(partitioned ? [PLAYWRIGHT_DISABLED_FEATURES.replace("ThirdPartyStoragePartitioning,", "")] : []),
    ],
    ...(partitioned ? { ignoreDefaultArgs: [PLAYWRIGHT_DISABLED_FEATURES] } : {}),
  });
}
