export { createTestDatabase, startTestCluster, TEST_ADMIN_URL_ENV, type TestDatabase } from "./test-cluster";
export { default as globalSetup } from "./global-setup";
