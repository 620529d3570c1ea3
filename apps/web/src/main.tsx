import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/app';
import { reloadOnNewVersion } from './lib/new-version';

// The CSP allows no eval: without this, zod probes `new Function` and the browser reports a violation.
z.config({ jitless: true });

reloadOnNewVersion();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
