/** The headless workbench's folder browser (GET /api/browse): directories below the home folder. */

/** What adding the directory would mean (the workbench words each as a badge). */
export type BrowseMark =
  | 'data_folder'
  | 'contains_data_folder'
  | 'indexed'
  | 'inside_indexed'
  | 'contains_indexed'
  | 'secret'
  | 'default_exclude'
  | 'outside_home';

export interface BrowseEntry {
  name: string;
  path: string;
  hidden: boolean;
  /** Cairn may list and read it. */
  readable: boolean;
  marks: BrowseMark[];
}

export interface BrowseResponse {
  /** The directory listed (its real path). */
  path: string;
  home: string;
  /** null at the home folder: the browser goes no higher. */
  parent: string | null;
  entries: BrowseEntry[];
  /** More directories than are listed (type the path instead). */
  truncated: boolean;
}
