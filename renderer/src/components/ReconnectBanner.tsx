import { useEngine } from '../hooks/engine-context';

/** Shown while the engine does not answer (restarting, stopped) or rejects the admin token. */
export function ReconnectBanner() {
  const { link } = useEngine();
  if (link === 'offline') {
    return (
      <div className="banner warn" role="status" aria-live="assertive" data-testid="reconnect-banner">
        The engine is not answering. Reconnecting… (what you see may be out of date)
      </div>
    );
  }
  if (link === 'unauthorized') {
    return (
      <div className="banner error" role="alert" data-testid="unauthorized-banner">
        The engine rejected this page's admin token. Open the workbench again from the address that{' '}
        <code>cairn serve</code> printed (it carries a fresh token).
      </div>
    );
  }
  return null;
}
