import { createHash } from "node:crypto";
import type pg from "pg";
import { SAMPLE_CORPUS, type SamplePassage } from "./sample-corpus";

/**
 * The sample corpus lives in PostgreSQL, in a schema of its own (`local_assistant`, not
 * managed by the service's migrations), with a generated tsvector column and a GIN index
 * for full-text search. Loading is idempotent and safe when several processes start at once.
 */
const LOCK_KEY = 72_707_370;

export async function loadSampleCorpus(pool: pg.Pool, corpus: SamplePassage[] = SAMPLE_CORPUS): Promise<void> {
  const version = createHash("sha256").update(JSON.stringify(corpus)).digest("hex");
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS local_assistant;
      CREATE TABLE IF NOT EXISTS local_assistant.corpus_version (version text NOT NULL);
      CREATE TABLE IF NOT EXISTS local_assistant.passages (
        id text PRIMARY KEY,
        kind text NOT NULL,
        source text NOT NULL,
        source_label text NOT NULL,
        title text NOT NULL,
        section text NOT NULL,
        body text NOT NULL,
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', source_label || ' ' || title), 'A') || setweight(to_tsvector('english', body), 'B')
        ) STORED
      );
      CREATE INDEX IF NOT EXISTS passages_search_idx ON local_assistant.passages USING gin (search);`);
    const { rows } = await client.query<{ version: string }>("SELECT version FROM local_assistant.corpus_version");
    if (rows[0]?.version === version) return;
    await client.query("BEGIN");
    await client.query("DELETE FROM local_assistant.passages");
    await client.query(
      `INSERT INTO local_assistant.passages (id, kind, source, source_label, title, section, body)
       SELECT p.id, p.kind, p.source, p.source_label, p.title, p.section, p.body
       FROM jsonb_to_recordset($1::jsonb) AS p(id text, kind text, source text, source_label text, title text, section text, body text)`,
      [
        JSON.stringify(
          corpus.map((passage) => ({
            id: passage.id,
            kind: passage.kind,
            source: passage.source,
            source_label: passage.sourceLabel,
            title: passage.title,
            section: passage.section,
            body: passage.text,
          })),
        ),
      ],
    );
    await client.query("DELETE FROM local_assistant.corpus_version");
    await client.query("INSERT INTO local_assistant.corpus_version (version) VALUES ($1)", [version]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => {});
    client.release();
  }
}

export interface RetrievedPassage {
  id: string;
  kind: SamplePassage["kind"];
  source: string;
  sourceLabel: string;
  title: string;
  section: string;
  text: string;
  rank: number;
}

export interface SelectedSources {
  agency_source_types: string[];
  tenant_source_keys: string[];
  shared_source_types: string[];
}

/** Words every mortgage question shares: they say nothing about which excerpt is relevant. */
const GENERIC_WORDS = new Set(["loan", "loans", "mortgage", "mortgages", "borrower", "borrowers", "lender", "lenders", "guideline", "guidelines", "rule", "rules", "requirement", "requirements"]);

/**
 * Below this rank an excerpt is only loosely related (it shares a word or two with the
 * question): better to say there is no relevant excerpt than to answer from it.
 */
export const MIN_RELEVANCE = 0.5;

/** Loan programs (spec 2.12) and the agency sources written for them: their excerpts rank higher. */
const PROGRAM_SOURCES: Record<string, string[]> = { fha: ["fha"], va: ["va"], usda: ["usda"], conventional: ["fannie_mae", "freddie_mac"] };

/**
 * Full-text search over the selected sources only. The question's words (less the generic
 * ones) are OR-ed and ranked with ts_rank_cd, titles weighing more than bodies; anything
 * under MIN_RELEVANCE is left out. With a loan program, agency excerpts written for other
 * programs come last; the program's own excerpts and the lender's overlays keep their rank
 * order, so an overlay that answers better is never pushed out by an agency excerpt.
 */
export async function searchPassages(pool: pg.Pool, question: string, sources: SelectedSources, limit = 3, program?: string): Promise<RetrievedPassage[]> {
  const words = (question.toLowerCase().match(/[a-z0-9-]+/g) ?? []).filter((word) => !GENERIC_WORDS.has(word)).join(" ");
  const { rows } = await pool.query<{
    id: string;
    kind: SamplePassage["kind"];
    source: string;
    source_label: string;
    title: string;
    section: string;
    body: string;
    rank: number;
  }>(
    `WITH q AS (SELECT NULLIF(replace(plainto_tsquery('english', $1)::text, '&', '|'), '')::tsquery AS query),
     ranked AS (
       SELECT p.*, ts_rank_cd(p.search, q.query) AS rank, (p.kind = 'agency' AND p.source = ANY($6)) AS in_program
       FROM local_assistant.passages p, q
       WHERE q.query IS NOT NULL AND p.search @@ q.query
         AND ((p.kind = 'agency' AND p.source = ANY($2)) OR (p.kind = 'tenant_bucket' AND p.source = ANY($3))
              OR (p.kind = 'shared' AND p.source = ANY($4))))
     SELECT id, kind, source, source_label, title, section, body, rank FROM ranked
     WHERE rank >= $7
     ORDER BY (kind = 'agency' AND cardinality($6::text[]) > 0 AND NOT in_program), rank DESC, id
     LIMIT $5`,
    [words, sources.agency_source_types, sources.tenant_source_keys, sources.shared_source_types, limit, PROGRAM_SOURCES[program ?? ""] ?? [], MIN_RELEVANCE],
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    source: row.source,
    sourceLabel: row.source_label,
    title: row.title,
    section: row.section,
    text: row.body,
    rank: Number(row.rank),
  }));
}
