/**
 * @module gateway/template-view
 * How `GET /api/templates` shows a server template (the types are the API contract's). Tenants
 * see what they need to fill one in: name, description, typed parameters. The command line is for
 * administrators only; fixed environment values (possibly secrets) are shown to nobody.
 */

import type { TemplateParameterView, TemplateView } from '../contract/api-contract.js';

export type { TemplateParameterView, TemplateView };

/** The stored template fields the view is made from. */
export interface TemplateSource {
  name: string;
  description?: string;
  command: string;
  args: string[];
  parameters: Array<Record<string, unknown>>;
}

/** The view of a stored template (its parameters were validated when it was stored). */
export function templateView(template: TemplateSource, admin: boolean): TemplateView {
  return {
    name: template.name,
    ...(template.description === undefined ? {} : { description: template.description }),
    parameters: template.parameters.map(parameterView),
    ...(admin ? { command: template.command, args: template.args } : {}),
  };
}

function parameterView(parameter: Record<string, unknown>): TemplateParameterView {
  const type = parameter.type;
  const scalar = (value: unknown): value is string | number | boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  const view: TemplateParameterView = {
    name: String(parameter.name),
    type: type === 'number' || type === 'integer' || type === 'boolean' || type === 'enum' ? type : 'string',
    // As the registry checks it: a value is needed unless the parameter is optional or has a default.
    required: parameter.required !== false && !scalar(parameter.default),
  };
  if (typeof parameter.description === 'string') view.description = parameter.description;
  if (scalar(parameter.default) && parameter.secret !== true) view.default = parameter.default;
  if (Array.isArray(parameter.values)) view.values = parameter.values.filter((value): value is string => typeof value === 'string');
  if (typeof parameter.pattern === 'string') view.pattern = parameter.pattern;
  if (typeof parameter.minimum === 'number') view.minimum = parameter.minimum;
  if (typeof parameter.maximum === 'number') view.maximum = parameter.maximum;
  if (parameter.secret === true) view.secret = true;
  return view;
}
