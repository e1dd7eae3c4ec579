import { startTestCluster, TEST_ADMIN_URL_ENV } from "./test-cluster";

/** vitest globalSetup: one PostgreSQL cluster for the run; test files create their own databases in it. */
export default async function setup() {
  const cluster = await startTestCluster();
  process.env[TEST_ADMIN_URL_ENV] = cluster.adminUrl;
  return () => cluster.stop();
}
