/**
 * The one screen a page without a valid admin token shows, instead of every panel failing on its
 * own: where the token comes from, and a field to paste it.
 */
import { useState } from 'react';
import { resetConnection } from '../api/client';
import { storeToken } from '../api/auth';
import { useEngine } from '../hooks/engine-context';

export function LoginScreen() {
  const { refresh } = useEngine();
  const [token, setToken] = useState('');
  const origin = window.location.origin;
  return (
    <main id="main" className="login" data-testid="login-screen">
      <section className="panel login-card">
        <h2>Sign in to this Cairn</h2>
        <p>
          This page needs Cairn&apos;s <strong>admin token</strong>, which proves it is you and not another web page or
          program. Any of these works:
        </p>
        <ol>
          <li>
            Open the <strong>Workbench</strong> address that <code>cairn serve</code> (or <code>npm start</code>)
            printed in its terminal: it looks like <code>{origin}/#token=…</code> and signs you in by itself.
          </li>
          <li>
            Or copy the token from the file <code>admin-token</code> in Cairn&apos;s data folder (readable only by your
            user; it stays the same across restarts; <code>cairn status</code> shows where the data folder is) and paste
            it here.
          </li>
          <li>In the desktop app, the workbench is signed in already: open it from the tray.</li>
        </ol>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (!token.trim()) return;
            storeToken(token);
            resetConnection();
            setToken('');
            void refresh();
          }}
        >
          <label htmlFor="login-token">Admin token</label>
          <input
            id="login-token"
            className="wide mono"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            data-testid="login-token"
          />
          <button type="submit" className="btn primary" disabled={!token.trim()} data-testid="login-submit">
            Sign in
          </button>
        </form>
        <p className="hint">
          The token stays in this tab only (it is forgotten when the tab closes) and is never put in the address bar.
        </p>
      </section>
    </main>
  );
}
