export interface EngineLayer {
  name: string;
  why: string;
  /** Folders directly under main/engine. */
  folders: string[];
  /** Files directly in main/engine. */
  files: string[];
}
export const ENGINE_LAYERS: EngineLayer[];
export function importsAbove(index: number, root: boolean): string | null;
