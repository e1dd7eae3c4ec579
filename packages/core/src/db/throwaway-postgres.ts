import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { startEmbeddedPostgres } from "./embedded-postgres";

export interface ThrowawayPostgres {
  url: string;
  /** Its data directory (the bench reads the postmaster's pid there). */
  dataDir: string;
  /** Stops the cluster and removes its folder. */
  stop(): Promise<void>;
}

/**
 * An embedded PostgreSQL in a fresh temporary folder, gone with the folder when stopped: the
 * test runs' cluster, the bench's and `bench:compare`'s. `prefix` names the folder in the
 * system's temporary directory, `database` the database it is created with.
 */
export async function startThrowawayPostgres(prefix: string, database: string): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  // Run as root, PostgreSQL runs as the `postgres` user, who must enter the folder.
  chmodSync(dir, 0o755);
  const dataDir = path.join(dir, "pg");
  try {
    const cluster = await startEmbeddedPostgres({ dataDir, database, persistent: false });
    return {
      url: cluster.url,
      dataDir,
      async stop() {
        await cluster.stop();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}
