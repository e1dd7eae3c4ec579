export {
  createTestDatabase,
  startTestCluster,
  TEST_ADMIN_URL_ENV,
  TEST_SECRET_KEY,
  TEST_SECRETS,
  type TestDatabase,
} from "./test-cluster";
export { default as globalSetup } from "./global-setup";
export { seedDirectory, type SeedDirectoryInput, type SeededDirectory } from "./seed-directory";
