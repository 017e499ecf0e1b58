import { useEngine } from '../hooks/engine-context';

/** Shown while the engine does not answer (restarting, stopped); a rejected token gets the sign-in screen. */
export function ReconnectBanner() {
  const { link } = useEngine();
  if (link === 'offline') {
    return (
      <div className="banner warn" role="status" aria-live="assertive" data-testid="reconnect-banner">
        The engine is not answering. Reconnecting… (what you see may be out of date)
      </div>
    );
  }
  return null;
}
