/**
 * @module dashboard/components/tool-link
 * One entry of the tool list: the tool's name, its server, and its description without the
 * catalog's `[server]` prefix (the server is shown right beside it).
 */

import type { ToolView } from '../../contract/api-contract.js';
import { descriptionBesideServer } from '../model/tool-description.js';
import { ToolIcon } from './tool-icon.js';

export interface ToolLinkProps {
  tool: ToolView;
  href: string;
  current: boolean;
}

export function ToolLink({ tool, href, current }: ToolLinkProps) {
  const description = descriptionBesideServer(tool.description, tool.server);
  return (
    <a href={href} aria-current={current ? 'true' : undefined}>
      <span class="tool-name">
        <ToolIcon icons={tool.icons} />
        {tool.name}
      </span>
      <span class="muted small">{tool.server}</span>
      {description === undefined ? null : <span class="tool-description small">{description}</span>}
    </a>
  );
}
