import { Badge, type BadgeTone } from '../../ui/badges';
import type { PublishState } from './forms-api';

const TONES: Record<PublishState, BadgeTone> = { Published: 'positive', Outdated: 'warning', Unpublished: 'neutral' };

/** Published, Unpublished, or Outdated when the public form is an older build than the saved one (spec §4 Form). */
export function PublishBadge({ state }: { state: PublishState }) {
  return <Badge tone={TONES[state] ?? 'neutral'}>{state}</Badge>;
}
