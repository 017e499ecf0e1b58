import { ReconnectBanner } from './components/ReconnectBanner';
import { ThemeToggle } from './components/ThemeToggle';
import { EngineProvider } from './hooks/EngineProvider';
import { useEngine } from './hooks/engine-context';
import { LoginScreen } from './components/LoginScreen';
import { ClientsPanel } from './panels/ClientsPanel';
import { DefaultsPanel } from './panels/DefaultsPanel';
import { IndexPanel } from './panels/IndexPanel';
import { ProbePanel } from './panels/ProbePanel';
import { SearchPanel } from './panels/SearchPanel';
import { SecurityPanel } from './panels/SecurityPanel';
import { StatusCard } from './panels/StatusCard';
import { GettingStarted } from './panels/GettingStarted';
import { SettingsPanel } from './panels/SettingsPanel';

// In the order of the first-run path: add a folder, search it, connect a client; then the server.
const NAV = [
  ['index', 'Index'],
  ['search', 'Search'],
  ['clients', 'Clients'],
  ['status', 'Server'],
  ['probe', 'Probe'],
  ['security', 'Security'],
  ['settings', 'Settings'],
] as const;

export function App() {
  return (
    <EngineProvider>
      <Workbench />
    </EngineProvider>
  );
}

function Workbench() {
  const { link } = useEngine();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <h1>Cairn</h1>
        {link === 'unauthorized' ? (
          <div className="nav-spacer" />
        ) : (
          <nav aria-label="Panels">
            {NAV.map(([id, label]) => (
              <a key={id} href={`#${id}`}>
                {label}
              </a>
            ))}
          </nav>
        )}
        <ThemeToggle />
      </header>
      <ReconnectBanner />
      {link === 'unauthorized' ? <LoginScreen /> : <Panels />}
    </>
  );
}

function Panels() {
  return (
    <>
      <main id="main" tabIndex={-1}>
        <div className="span">
          <GettingStarted />
        </div>
        <div className="col">
          <IndexPanel />
          <SearchPanel />
          <ClientsPanel />
        </div>
        <div className="col">
          <StatusCard />
          <ProbePanel />
          <DefaultsPanel />
          <SecurityPanel />
          <SettingsPanel />
        </div>
      </main>
    </>
  );
}
