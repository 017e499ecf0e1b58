/** Where each MCP client keeps its configuration, per OS, under a home folder (tests use a temp dir). */
import { join } from 'node:path';
import type { ClientConfig } from '../../common/admin.js';

export type ClientId = ClientConfig['id'];

function appData(home: string, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (platform === 'win32') return join(home, 'AppData', 'Roaming');
  return join(home, '.config');
}

/** `env` supplies CODEX_HOME (Codex's own override of ~/.codex). */
export function clientConfigPath(
  id: ClientId,
  home: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv = {},
): string | null {
  switch (id) {
    case 'claude-desktop':
      return join(appData(home, platform), 'Claude', 'claude_desktop_config.json');
    case 'claude-code':
      return null; // configured with its own CLI (`claude mcp add`), which owns ~/.claude.json
    case 'cursor':
      return join(home, '.cursor', 'mcp.json');
    case 'vscode':
      return join(appData(home, platform), 'Code', 'User', 'mcp.json');
    case 'codex':
      return join(env.CODEX_HOME || join(home, '.codex'), 'config.toml');
    case 'windsurf':
      return join(home, '.codeium', 'windsurf', 'mcp_config.json');
    case 'gemini':
      return join(home, '.gemini', 'settings.json');
  }
}
