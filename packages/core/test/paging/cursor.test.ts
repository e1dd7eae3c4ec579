import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";

import {
  decodeCursor,
  decodePositionCursor,
  encodeCursor,
  encodePositionCursor,
  keysetDirection,
  keysetPage,
  pageOf,
} from "../../src/paging/cursor";
import { serverSecrets } from "../../src/secrets/server-secrets";

/** The signed cursors of every list: a (time, id) position or a row's position in its parent, each bound to its filters. */
const secrets = serverSecrets("a test secret key of at least thirty-two characters");
const filters = { list: "messages", conversation: "conv_1", order: "asc" };

describe("cursors", () => {
  it("a (time, id) cursor issued before positions existed still decodes: its payload is unchanged", () => {
    // As the previous build wrote it: {c, i, f} with f the first 16 characters of the filters' SHA-256.
    const f = createHash("sha256")
      .update(JSON.stringify({ status: "active" }))
      .digest("base64url")
      .slice(0, 16);
    const payload = Buffer.from(JSON.stringify({ c: "2026-11-20T14:03:12.000Z", i: "team_1", f })).toString(
      "base64url",
    );
    const issued = `${payload}.${secrets.sign("cursor", payload)}`;
    expect(decodeCursor(secrets, issued, { status: "active" })).toEqual({
      createdAt: "2026-11-20T14:03:12.000Z",
      id: "team_1",
    });
    expect(encodeCursor(secrets, { createdAt: "2026-11-20T14:03:12.000Z", id: "team_1" }, { status: "active" })).toBe(
      issued,
    );
  });

  it("a position round-trips with its filters only", () => {
    const cursor = encodePositionCursor(secrets, 25, filters);
    expect(decodePositionCursor(secrets, cursor, filters)).toBe(25);
    expect(decodePositionCursor(secrets, undefined, filters)).toBeUndefined();
    expect(() => decodePositionCursor(secrets, cursor, { ...filters, order: "desc" })).toThrow(/same filters/);
    expect(() => decodePositionCursor(secrets, cursor, { ...filters, conversation: "conv_2" })).toThrow(/same filters/);
  });

  it("one kind of cursor is never taken for the other, nor anything unsigned or altered", () => {
    const timed = encodeCursor(secrets, { createdAt: "2026-11-20T14:03:12.000Z", id: "conv_1" }, filters);
    const positioned = encodePositionCursor(secrets, 3, filters);
    expect(() => decodePositionCursor(secrets, timed, filters)).toThrow(/not a cursor returned by this API/);
    expect(() => decodeCursor(secrets, positioned, filters)).toThrow(/not a cursor returned by this API/);
    const [payload] = positioned.split(".") as [string];
    for (const forged of ["x", `${payload}.`, `${payload}.${"A".repeat(43)}`, `${positioned}.extra`]) {
      expect(() => decodePositionCursor(secrets, forged, filters), forged).toThrow(/not a cursor returned by this API/);
    }
    // Signed, but not a position: refused as not ours rather than reaching a query.
    for (const p of [-1, 1.5, "3", null, 2 ** 31, 2 ** 53]) {
      const body = Buffer.from(
        JSON.stringify({ p, f: JSON.parse(Buffer.from(payload, "base64url").toString()).f }),
      ).toString("base64url");
      expect(
        () => decodePositionCursor(secrets, `${body}.${secrets.sign("cursor", body)}`, filters),
        String(p),
      ).toThrow(/not a cursor returned by this API/);
    }
  });

  it("pageOf: the first `limit` rows, and a cursor only when the extra row shows more follow", () => {
    expect(pageOf([1, 2, 3], 2, (last) => `after ${last}`)).toEqual({ rows: [1, 2], nextCursor: "after 2" });
    expect(pageOf([1, 2], 2, (last) => `after ${last}`)).toEqual({ rows: [1, 2], nextCursor: null });
    expect(pageOf([], 2, (last) => `after ${String(last)}`)).toEqual({ rows: [], nextCursor: null });
  });
});

describe("paging back (keysetPage with a backward cursor)", () => {
  const rows = Array.from({ length: 7 }, (_, index) => ({
    id: `row_${index}`,
    created_at: new Date(Date.UTC(2026, 10, 20, 12, index)),
  }));
  const listFilters = { list: "rows" };

  it("a page after the first gives a backward cursor before its first row; reading back turns the rows round", () => {
    const first = keysetPage(secrets, rows.slice(0, 4), 3, listFilters);
    expect(first.rows.map((row) => row.id)).toEqual(["row_0", "row_1", "row_2"]);
    expect(first.previousCursor).toBeNull();
    const from = decodeCursor(secrets, first.nextCursor ?? undefined, listFilters);
    const second = keysetPage(secrets, rows.slice(3, 7), 3, listFilters, from);
    expect(second.previousCursor).not.toBeNull();
    const back = decodeCursor(secrets, second.previousCursor ?? undefined, listFilters);
    expect(back).toEqual({ createdAt: rows[3]?.created_at.toISOString(), id: "row_3", backward: true });
    expect(keysetDirection(back, "asc")).toEqual({ comparison: "<", order: "DESC" });
    expect(keysetDirection(back, "desc")).toEqual({ comparison: ">", order: "ASC" });
    expect(keysetDirection(from, "asc")).toEqual({ comparison: ">", order: "ASC" });
    // The query reads backwards: row_2, row_1, row_0 (no extra row: nothing precedes them).
    const again = keysetPage(secrets, [rows[2], rows[1], rows[0]] as typeof rows, 3, listFilters, back);
    expect(again.rows.map((row) => row.id)).toEqual(["row_0", "row_1", "row_2"]);
    expect(again.previousCursor).toBeNull();
    expect(decodeCursor(secrets, again.nextCursor ?? undefined, listFilters)).toEqual({
      createdAt: rows[2]?.created_at.toISOString(),
      id: "row_2",
    });
  });

  it("a backward cursor is bound to its filters and signed like any other", () => {
    const back = encodeCursor(
      secrets,
      { createdAt: "2026-11-20T14:03:12.000Z", id: "row_1", backward: true },
      listFilters,
    );
    expect(() => decodeCursor(secrets, back, { list: "other" })).toThrow(/same filters/);
    const [payload] = back.split(".") as [string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), b: 2 }),
    ).toString("base64url");
    expect(() => decodeCursor(secrets, `${forged}.${secrets.sign("cursor", forged)}`, listFilters)).toThrow(
      /not a cursor returned by this API/,
    );
  });
});
