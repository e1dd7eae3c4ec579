import { describe, expect, it } from "vitest";

import { buildSourceCatalog } from "../../src/sources/source-catalog";

describe("source catalog", () => {
  it("derives tenant keys and defaults from the described buckets when not given", () => {
    const catalog = buildSourceCatalog({
      clientName: "Acme",
      enabledSources: ["fha"],
      baseSources: [],
      tenantSources: [
        { key: "a", label: "A", defaultOn: true },
        { key: "b", label: "B", defaultOn: false },
      ],
    });
    expect(catalog.tenant_source_keys).toEqual(["a", "b"]);
    expect(catalog.default_tenant_source_keys).toEqual(["a"]);
    expect(catalog.shared_sources).toEqual([]);
    expect(catalog.tenant_source_sidebar_mode).toBeNull();
  });

  it("lists an assigned bucket without a description under its key", () => {
    const catalog = buildSourceCatalog({
      clientName: "Acme",
      enabledSources: [],
      baseSources: [],
      tenantSourceKeys: ["x"],
    });
    expect(catalog.tenant_sources).toEqual([{ key: "x", label: "x", defaultOn: false }]);
  });
});
