// The driver app (docs/driver-app.md): a phone-first installable web app at /driver that keeps working offline.
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from '../api/index.ts';
import { LangProvider } from '../i18n/index.tsx';
import '../ui/styles.css';
import './driver.css';
import { App } from './app.tsx';
import { tourQuery } from './data.ts';
import { startOutbox } from './queue/use-outbox.ts';

// The service worker's scope is /driver/: the app lives at /driver/ so that it is the page the worker serves offline.
if (location.pathname === '/driver') history.replaceState(null, '', `/driver/${location.search}${location.hash}`);
if ('serviceWorker' in navigator) {
  addEventListener('load', () => void navigator.serviceWorker.register('/driver/sw.js', { scope: '/driver/' }).catch(() => undefined));
}
startOutbox();
// A tour opened from a link or the home screen is asked for at once, beside the session, not after it.
const opened = /^\/driver\/tours\/([0-9a-f-]{36})/.exec(location.pathname);
if (opened) void queryClient.prefetchQuery(tourQuery(opened[1]!));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <LangProvider>
        <App />
      </LangProvider>
    </QueryClientProvider>
  </StrictMode>,
);
