// Report life (close, re-open, archive, priority, identifiers, mute) and notes mutations are registered here.
export {};
