/** Published after a session ends or a user loses access; without a session hash it concerns every session of the user. */
export interface UserDisconnectEvent {
  sessionTokenHash?: string;
  [key: string]: unknown;
}

export const userDisconnectTopic = (userId: string) => `user.disconnect.${userId}`;
