export const USAGE = `cairn — a local search engine over your folders, for AI agents (MCP)

Usage:
  cairn add <folder> [--include GLOB]... [--exclude GLOB]...   add a folder to the index
            [--include-secrets]                                (also index .env, keys, .ssh/…: left out by default)
            [--text-only]                                      (no vectors: full-text and graph search only)
  cairn remove <folder>                                        remove a folder and its index
  cairn index [<folder>...] [--rebuild]                        index (or re-index) until done
  cairn search "<query>" [--mode M] [--top-k N] [--folder F]... [--glob G]... [--type T]... [--json]
  cairn status [--json]                                        folders, jobs, model, contract
  cairn files <folder> [--show all|indexed|embedding|errors|skipped] [--offset N] [--limit N] [--json]
                                                               a folder's files, and what was skipped and why
  cairn serve [--port N] [--host H]                            run the engine: MCP + workbench + watcher
  cairn mcp --stdio                                            serve the MCP tools over stdio
  cairn stop [--timeout SECONDS] [--json]                      stop the engine serving the data folder
  cairn help | --version

Modes: vector, sparse, hybrid, tribrid (default: the mcp.default_mode setting).
Data folder: $CAIRN_HOME, else the OS app-data folder "Cairn".
While "cairn serve" runs, the other commands go through it.
Exit codes: 0 ok, 1 error, 2 bad usage or argument, 3 index contract mismatch or corrupt index
(re-index), 4 a required dependency or retrieval leg is unavailable, 5 data folder locked.
`;
