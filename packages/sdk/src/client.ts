import { resolveClientOptions, type ClientOptions } from "./client-options";
import { createTransport, type Transport } from "./http/transport";
import { ConversationsResource } from "./resources/conversations";
import { EmbedSessionsResource } from "./resources/embed-sessions";
import { EventsResource } from "./resources/events";
import { IntegrationResource } from "./resources/integration";
import { MeResource } from "./resources/me";
import { MessagesResource } from "./resources/messages";
import { SourcesResource } from "./resources/sources";
import { UsageResource } from "./resources/usage";

/**
 * The API's client, for server-side code only (an API key must never reach a browser):
 * `new Client({ apiKey, baseUrl })` (or `new Client()` with MGA_API_KEY and MGA_BASE_URL set),
 * then one property per resource.
 */
export class Client {
  readonly me: MeResource;
  readonly sources: SourcesResource;
  readonly conversations: ConversationsResource;
  readonly messages: MessagesResource;
  readonly embedSessions: EmbedSessionsResource;
  /** GET /v1/events (webhooks deliver the same events; verify those with `webhooks.verify`). */
  readonly events: EventsResource;
  readonly usage: UsageResource;
  private readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    this.transport = createTransport(resolveClientOptions(options));
    this.me = new MeResource(this.transport);
    this.sources = new SourcesResource(this.transport);
    this.conversations = new ConversationsResource(this.transport);
    this.messages = new MessagesResource(this.transport);
    this.embedSessions = new EmbedSessionsResource(this.transport);
    this.events = new EventsResource(this.transport);
    this.usage = new UsageResource(this.transport);
  }

  /** The partner directory of one integration: its teams, users, lifecycle operations and imports. */
  integration(slug: string): IntegrationResource {
    return new IntegrationResource(this.transport, slug);
  }
}
