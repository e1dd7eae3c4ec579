export interface ChatIdentityInput {
  partnerUserId: string;
  generation: number;
}

/** The hosted chat's identity store: one identity per partner user and account generation. */
export interface ChatIdentities {
  create(input: ChatIdentityInput): Promise<{ id: string }>;
  /**
   * Optional batch form of create (an import's chunk): one result per input, in order, each as
   * the single call would have ended; one input's failure is its own. Without it,
   * createChatIdentities calls create once per input.
   */
  createMany?(inputs: ChatIdentityInput[]): Promise<Array<PromiseSettledResult<{ id: string }>>>;
  block(identityId: string): Promise<void>;
}

/** The port's createMany, or create once per input; a call that fails as a whole fails every input. */
export function createChatIdentities(
  port: ChatIdentities,
  inputs: ChatIdentityInput[],
): Promise<Array<PromiseSettledResult<{ id: string }>>> {
  if (inputs.length === 0) return Promise.resolve([]);
  if (!port.createMany) return Promise.allSettled(inputs.map((input) => port.create(input)));
  return port
    .createMany(inputs)
    .catch((reason: unknown) =>
      inputs.map((): PromiseSettledResult<{ id: string }> => ({ status: "rejected", reason })),
    );
}
