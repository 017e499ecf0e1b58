import { describeEngineAway } from '../../../main/common/engine-away';
import { useEngine } from '../hooks/engine-context';

/**
 * Shown while the engine does not answer (restarting, stopped); a rejected token gets the sign-in
 * screen. In the desktop app the shell says why (starting, given up): the page may be open before
 * the engine ever answered, and a first start is not trouble.
 */
export function ReconnectBanner() {
  const { link, away } = useEngine();
  if (link !== 'offline') return null;
  if (away) {
    const t = describeEngineAway(away);
    return (
      <div
        className={`banner ${t.severity}`}
        role={t.severity === 'error' ? 'alert' : 'status'}
        aria-live={t.severity === 'error' ? 'assertive' : 'polite'}
        data-testid="reconnect-banner"
        data-engine={away.engine}
      >
        <p>{t.message}</p>
        {t.remedy ? <p data-testid="reconnect-remedy">What to do: {t.remedy}</p> : null}
      </div>
    );
  }
  return (
    <div className="banner warn" role="status" aria-live="assertive" data-testid="reconnect-banner">
      The engine is not answering. Reconnecting… (what you see may be out of date)
    </div>
  );
}
