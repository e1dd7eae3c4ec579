import { describe, expect, it } from "vitest";

import { csvImportRows } from "../../src/routers/staff/partner-imports/csv-import-rows";

/** A CSV file for the console's import: the partner API's rows, or each refused line with its reason. */
describe("csvImportRows", () => {
  it("reads quoted cells, any header case, a byte-order mark and CRLF lines; an empty optional cell is absent", () => {
    const text =
      '\uFEFFExternal_User_Id,Email,Name,team_external_id\r\nlo-1,lo-1@lender.test,"Lee, Ann",t1\r\n\r\nlo-2,lo-2@lender.test,,\r\n';
    expect(csvImportRows(text)).toEqual({
      users: [
        { external_user_id: "lo-1", email: "lo-1@lender.test", name: "Lee, Ann", team_external_id: "t1" },
        { external_user_id: "lo-2", email: "lo-2@lender.test" },
      ],
      errors: [],
    });
  });

  it("names every refused line with its reason: a bad email, a missing id, a repeated id", () => {
    const { errors } = csvImportRows(
      "external_user_id,email\nok-1,ok-1@lender.test\nbad,not-an-email\n,x@lender.test\nok-1,again@lender.test\n",
    );
    expect(errors).toEqual([
      { line: 3, message: expect.stringMatching(/^email: /) },
      { line: 4, message: "external_user_id: required" },
      { line: 5, message: "external_user_id: ok-1 repeats line 2" },
    ]);
  });

  it("refuses a header without the required columns or with unknown ones, an empty file and broken CSV", () => {
    expect(csvImportRows("id,email\na,a@b.test\n").errors).toEqual([
      {
        line: 1,
        message:
          "header: missing column external_user_id; unknown column id (columns: external_user_id, email, name, team_external_id)",
      },
    ]);
    expect(csvImportRows("").errors[0]?.line).toBe(1);
    expect(csvImportRows("external_user_id,email\n").errors).toEqual([
      { line: 2, message: "no users: add one line per user under the header" },
    ]);
    expect(csvImportRows('external_user_id,email\n"a,a@b.test\n').errors).toEqual([
      { line: 2, message: "not valid CSV (quote not closed)" },
    ]);
    expect(csvImportRows("external_user_id,email\na,a@b.test,extra\n").errors).toEqual([
      { line: 2, message: "not valid CSV (record inconsistent columns)" },
    ]);
  });

  it("refuses more than 1,000 users", () => {
    const lines = Array.from({ length: 1001 }, (_, n) => `u-${n},u-${n}@lender.test`);
    expect(csvImportRows(`external_user_id,email\n${lines.join("\n")}\n`).errors).toEqual([
      { line: 1002, message: "at most 1000 users per import (got 1001); split the file" },
    ]);
  });
});
