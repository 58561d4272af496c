/**
 * @module config/vscode-variables
 * VS Code's predefined variables, so a `servers` block pasted from `.vscode/mcp.json` works as it is:
 * the workspace is the config file's folder — or, for a file in a `.vscode` folder, the project that
 * holds it, as in VS Code.
 */

import { homedir } from 'node:os';
import { basename, dirname, sep } from 'node:path';

/** `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` and `${/}` for a config in `baseDir`. */
export function vscodeVariables(baseDir: string, home: string = homedir()): Record<string, string> {
  const workspace = basename(baseDir) === '.vscode' ? dirname(baseDir) : baseDir;
  return {
    workspaceFolder: workspace,
    workspaceFolderBasename: basename(workspace),
    userHome: home,
    pathSeparator: sep,
    '/': sep,
  };
}
