/**
 * @module dashboard/components/tool-icon
 * A tool's (or server's) icon, when its server gave one: decorative (the name is beside it), loaded
 * without a referrer. Only `https:` and `data:` images reach the dashboard (the library's safeIcons).
 */

import type { IconView } from '../../contract/api-contract.js';

export function ToolIcon({ icons, size = 16 }: { icons: IconView[] | undefined; size?: number }) {
  // An embedded image first (nothing is fetched), then one for a light page, then any.
  const icon = icons?.find((candidate) => candidate.src.startsWith('data:')) ?? icons?.find((candidate) => candidate.theme !== 'dark') ?? icons?.[0];
  if (icon === undefined) return null;
  return <img class="tool-icon" src={icon.src} alt="" width={size} height={size} referrerpolicy="no-referrer" loading="lazy" decoding="async" />;
}
