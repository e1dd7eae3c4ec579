import type { Transport } from "../http/transport";
import { ImportsResource } from "./imports";
import { OperationsResource } from "./operations";
import { TeamsResource } from "./teams";
import { UsersResource } from "./users";

/** The partner directory of one integration (`/v1/integrations/{integration}/…`). */
export class IntegrationResource {
  readonly teams: TeamsResource;
  readonly users: UsersResource;
  readonly operations: OperationsResource;
  readonly imports: ImportsResource;

  constructor(transport: Transport, integration: string) {
    this.teams = new TeamsResource(transport, integration);
    this.users = new UsersResource(transport, integration);
    this.operations = new OperationsResource(transport, integration);
    this.imports = new ImportsResource(transport, integration);
  }
}
