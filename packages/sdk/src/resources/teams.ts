import { unwrap, type Transport } from "../http/transport";
import type { CallOptions } from "../idempotency";
import { paginate, type Page } from "../paging";
import type { ListTeamsQuery, PartnerTeam, PutTeamParams, UpdateTeamParams } from "../types";

/** /v1/integrations/{integration}/teams (scopes embed:teams:read, embed:teams:write). */
export class TeamsResource {
  constructor(
    private readonly transport: Transport,
    private readonly integration: string,
  ) {}

  /** One page of teams; pass the previous page's `next_cursor` as `cursor` for the next. */
  list(query: ListTeamsQuery & { cursor?: string } = {}, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.GET("/v1/integrations/{integration}/teams", {
        params: { path: { integration: this.integration }, query },
        signal: options.signal,
      }),
    );
  }

  /** Every team matching the filters, fetched page by page as the loop goes. */
  listAll(query: ListTeamsQuery = {}, options: CallOptions = {}): AsyncGenerator<PartnerTeam> {
    return paginate(async (cursor): Promise<Page<PartnerTeam>> => {
      const page = await this.list({ ...query, ...(cursor ? { cursor } : {}) }, options);
      return { items: page.teams, nextCursor: page.next_cursor };
    });
  }

  get(externalTeamId: string, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.GET("/v1/integrations/{integration}/teams/{external_team_id}", {
        params: { path: this.path(externalTeamId) },
        signal: options.signal,
      }),
    );
  }

  /** Creates the team, or updates it when it exists (PUT: safe to repeat, so retried). */
  put(externalTeamId: string, params: PutTeamParams, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.PUT("/v1/integrations/{integration}/teams/{external_team_id}", {
        params: { path: this.path(externalTeamId) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  /** Renames or archives (`status: "archived"`) or reactivates the team. */
  update(externalTeamId: string, params: UpdateTeamParams, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.PATCH("/v1/integrations/{integration}/teams/{external_team_id}", {
        params: { path: this.path(externalTeamId) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  private path(externalTeamId: string) {
    return { integration: this.integration, external_team_id: externalTeamId };
  }
}
