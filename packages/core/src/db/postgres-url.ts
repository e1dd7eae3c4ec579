/** The superuser of the embedded PostgreSQL. */
export const SUPERUSER = "postgres";

export function buildUrl(port: number, database: string, password: string): string {
  return `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** A PostgreSQL identifier, quoted. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
