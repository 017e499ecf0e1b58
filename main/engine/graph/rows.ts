/** A definition or heading (node) and a link, import or reference (edge): what the graph holds, one row each in `graph_nodes` / `graph_edges`. */
export interface NodeRow {
  id: string;
  folder: string;
  path: string;
  kind: string;
  name: string;
  start_line: number;
  end_line: number;
}

export interface EdgeRow {
  folder: string;
  path: string;
  kind: string;
  target: string;
  line: number;
}
