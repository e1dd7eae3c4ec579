import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openDatabase, type Database } from "../../src/db/database";
import { prepared } from "../../src/db/prepared";
import { createTestDatabase, type TestDatabase } from "../../src/testing/index";

let t: TestDatabase;
let db: Database;
beforeAll(async () => {
  t = await createTestDatabase();
  db = openDatabase(t.url, { secrets: t.db.secrets, maxConnections: 1 });
});
afterAll(async () => {
  await db.close();
  await t.drop();
});

describe("prepared statements", () => {
  it("are planned once per connection and run with each call's values", async () => {
    const square = prepared("test-square", "SELECT $1::int * $1::int AS n");
    expect((await db.sql.query(square([3]))).rows).toEqual([{ n: 9 }]);
    expect((await db.sql.query(square([4]))).rows).toEqual([{ n: 16 }]);
    const { rows } = await db.sql.query<{ name: string }>("SELECT name FROM pg_prepared_statements");
    expect(rows).toEqual([{ name: "test-square" }]);
  });

  it("refuse a name given twice, when it is given", () => {
    prepared("test-twice", "SELECT 1");
    expect(() => prepared("test-twice", "SELECT 2")).toThrow('the prepared statement name "test-twice" is taken');
  });
});
