// Report team (assign, owner, leave, guest invites) and tag operations are registered here.
export {};
