import { mergeConfig } from "vitest/config";

import { vitestConfig } from "../../tooling/vitest.base";

// The pages' styles are imported as text (`?raw`): vitest would otherwise hand every .css import an empty string.
export default mergeConfig(vitestConfig(), { test: { css: { include: [/\/static\/.+\.css/] } } });
