import type { EngineStatus } from '../../common/status.js';
import type { FolderAdmin } from '../folders/folder-admin.js';
import type { RepairInPlace } from '../folders/repair.js';
import type { ContractGuard } from '../index/contract-guard.js';
import type { DamageWatch } from '../index/damage.js';
import type { JobQueue } from '../jobs/queue.js';
import type { ModelService } from '../model/service.js';
import { secretExcludePatterns } from '../sources/defaults.js';
import { ENGINE_VERSION } from '../version.js';

export interface StatusParts {
  dataDir: string;
  folders: FolderAdmin;
  queue: JobQueue;
  models: ModelService;
  contract: ContractGuard;
  damage: DamageWatch;
  repair: RepairInPlace;
}

/** The engine's status (GET /api/status, `cairn status`): each part says its own, summed here. */
export function engineStatus(p: StatusParts): EngineStatus {
  const folders = p.folders.statuses();
  const mismatch = p.contract.mismatch;
  return {
    version: ENGINE_VERSION,
    data_dir: p.dataDir,
    folders,
    jobs: p.queue.list().map((j) => j.info()),
    model: p.models.status(),
    contract: p.contract.stored,
    contract_mismatch: mismatch ? mismatch.toBody() : null,
    index_damage: p.damage.current ? p.damage.current.toBody() : null,
    index_repair: p.repair.status,
    secret_excludes: secretExcludePatterns(),
    paused: p.queue.paused,
    model_switch: p.models.switchStatus(),
    totals: folders.reduce(
      (t, f) => ({
        files: t.files + f.files,
        chunks: t.chunks + f.chunks,
        embedded_chunks: t.embedded_chunks + f.embedded_chunks,
      }),
      { files: 0, chunks: 0, embedded_chunks: 0 },
    ),
  };
}
