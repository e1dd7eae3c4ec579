import { vitestConfig } from "../../tooling/vitest.base";

// Unit tests against msw and loopback servers: no database.
export default vitestConfig({ database: false });
