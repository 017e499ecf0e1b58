import type { ReactNode } from 'react';

/** A workbench panel: a labelled landmark region with a stable test id. */
export function Panel({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section className="panel" aria-labelledby={headingId} data-testid={`panel-${id}`} id={id}>
      <header className="panel-head">
        <h2 id={headingId}>{title}</h2>
        {actions ? <div className="panel-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite" data-testid="loading">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="empty" data-testid="empty">
      {children}
    </p>
  );
}
