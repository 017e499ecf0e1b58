import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { captureTokenFromUrl } from './api/auth';
import './styles.css';

// Before anything renders: take the admin token out of the address bar.
captureTokenFromUrl();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
