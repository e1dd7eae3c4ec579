import { unwrap, type Transport } from "../http/transport";
import { idempotencyHeader, type CallOptions, type IdempotentCallOptions } from "../idempotency";
import { paginate, type Page } from "../paging";
import type {
  DeletionParams,
  ListUsersQuery,
  PartnerUser,
  ProfileChangeParams,
  PutUserParams,
  ReprovisionParams,
  UpdateUserParams,
} from "../types";

/** /v1/integrations/{integration}/users (scopes embed:users:read, embed:users:write, embed:users:delete). */
export class UsersResource {
  constructor(
    private readonly transport: Transport,
    private readonly integration: string,
  ) {}

  /** One page of users with the integration's counts; pass `next_cursor` as `cursor` for the next. */
  list(query: ListUsersQuery & { cursor?: string } = {}, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.GET("/v1/integrations/{integration}/users", {
        params: { path: { integration: this.integration }, query },
        signal: options.signal,
      }),
    );
  }

  /** Every user matching the filters, fetched page by page as the loop goes. */
  listAll(query: ListUsersQuery = {}, options: CallOptions = {}): AsyncGenerator<PartnerUser> {
    return paginate(async (cursor): Promise<Page<PartnerUser>> => {
      const page = await this.list({ ...query, ...(cursor ? { cursor } : {}) }, options);
      return { items: page.users, nextCursor: page.next_cursor };
    });
  }

  get(externalUserId: string, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.GET("/v1/integrations/{integration}/users/{external_user_id}", {
        params: { path: this.path(externalUserId) },
        signal: options.signal,
      }),
    );
  }

  /** Provisions the user (or matches the existing one) and sets the team (PUT: safe to repeat, so retried). */
  put(externalUserId: string, params: PutUserParams, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.PUT("/v1/integrations/{integration}/users/{external_user_id}", {
        params: { path: this.path(externalUserId) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  /** Disables (`status: "disabled"`) or reactivates (`status: "active"`) the user. */
  update(externalUserId: string, params: UpdateUserParams, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.PATCH("/v1/integrations/{integration}/users/{external_user_id}", {
        params: { path: this.path(externalUserId) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  /** Starts a profile change (an operation: wait for it with `operations.waitFor`). */
  requestProfileChange(externalUserId: string, params: ProfileChangeParams, options: IdempotentCallOptions = {}) {
    return unwrap(
      this.transport.json.POST("/v1/integrations/{integration}/users/{external_user_id}/profile-changes", {
        params: { path: this.path(externalUserId), header: idempotencyHeader(options) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  /** Starts the deletion (needs a key with embed:users:delete); access ends at once. */
  requestDeletion(externalUserId: string, params: DeletionParams = {}, options: IdempotentCallOptions = {}) {
    return unwrap(
      this.transport.json.POST("/v1/integrations/{integration}/users/{external_user_id}/deletions", {
        params: { path: this.path(externalUserId), header: idempotencyHeader(options) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  /** Starts the reprovisioning of a deleted user: a new account generation. */
  reprovision(externalUserId: string, params: ReprovisionParams, options: IdempotentCallOptions = {}) {
    return unwrap(
      this.transport.json.POST("/v1/integrations/{integration}/users/{external_user_id}/reprovision", {
        params: { path: this.path(externalUserId), header: idempotencyHeader(options) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  private path(externalUserId: string) {
    return { integration: this.integration, external_user_id: externalUserId };
  }
}
