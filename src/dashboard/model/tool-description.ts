/**
 * @module dashboard/model/tool-description
 * The catalog starts every tool description with `[server]`, so that an agent reading a flat list
 * knows where a tool comes from. The dashboard shows the server's name beside each tool already: the
 * prefix would say it twice.
 */

/** The description as shown beside its server's name: without the catalog's `[server]` prefix; undefined when nothing is left. */
export function descriptionBesideServer(description: string | undefined, server: string): string | undefined {
  if (description === undefined) return undefined;
  const prefix = `[${server}]`;
  const text = description.startsWith(prefix) ? description.slice(prefix.length).trimStart() : description;
  return text === '' ? undefined : text;
}
