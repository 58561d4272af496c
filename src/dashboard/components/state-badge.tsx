/**
 * @module dashboard/components/state-badge
 * A server's state in colour and in words (colour alone would not reach everyone).
 */

const TONE: Record<string, string> = {
  ready: 'good',
  connecting: 'pending',
  reconnecting: 'pending',
  degraded: 'warn',
  failed: 'bad',
  closed: 'off',
};

export function StateBadge({ state, enabled = true }: { state: string; enabled?: boolean }) {
  const word = enabled ? state : 'disabled';
  return (
    <span class={`badge tone-${enabled ? (TONE[state] ?? 'off') : 'off'}`}>
      <span class="dot" aria-hidden="true" />
      {word}
    </span>
  );
}
