/** The hosted chat's identity store: one identity per partner user and account generation. */
export interface ChatIdentities {
  create(input: { partnerUserId: string; generation: number }): Promise<{ id: string }>;
  block(identityId: string): Promise<void>;
}
