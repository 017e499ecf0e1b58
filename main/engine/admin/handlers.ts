/** The type every admin route's handler has, read from the route table (common/admin-api.ts). */
import type { AdminRequest, AdminResponse, AdminRouteName } from '../../common/admin-api.js';
import type { AdminContext } from './context.js';

/** A success with another status than the route's declared one (the probe's failures are results). */
export class Reply<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/** `input` is the request the router read and checked against the route's schema. */
export type AdminHandler<K extends AdminRouteName> = (
  input: AdminRequest<K>,
  ctx: AdminContext,
  req: Request,
) => Promise<AdminResponse<K> | Reply<AdminResponse<K>>>;

export type AdminHandlers = { [K in AdminRouteName]: AdminHandler<K> };
