/**
 * @module config/vscode-variables
 * VS Code's predefined variables, so a `servers` block pasted from `.vscode/mcp.json` works as it is:
 * the workspace is the config file's folder.
 */

import { homedir } from 'node:os';
import { basename, sep } from 'node:path';

/** `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` and `${/}` for a config in `baseDir`. */
export function vscodeVariables(baseDir: string, home: string = homedir()): Record<string, string> {
  return {
    workspaceFolder: baseDir,
    workspaceFolderBasename: basename(baseDir),
    userHome: home,
    pathSeparator: sep,
    '/': sep,
  };
}
