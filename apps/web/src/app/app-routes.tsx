import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { CenteredStatus } from '../components/ui/centered-status';
import { AuthCallbackPage, AuthGate } from '../features/auth';
import { WorkspacePage } from '../features/workspace';

const subscription = () => import('../features/subscription');
const credentials = () => import('../features/credentials');
const systemLogs = () => import('../features/system-logs');
const statistics = () => import('../features/statistics');

const SubscribePage = lazy(() => subscription().then((m) => ({ default: m.SubscribePage })));
const SubscribeSuccessPage = lazy(() => subscription().then((m) => ({ default: m.SubscribeSuccessPage })));
const SubscribeCancelPage = lazy(() => subscription().then((m) => ({ default: m.SubscribeCancelPage })));
const SubscriptionPage = lazy(() => subscription().then((m) => ({ default: m.SubscriptionPage })));
const LogsPage = lazy(() => systemLogs().then((m) => ({ default: m.LogsPage })));
const StatsPage = lazy(() => statistics().then((m) => ({ default: m.StatsPage })));
const CredentialsPage = lazy(() => credentials().then((m) => ({ default: m.CredentialsPage })));

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<CenteredStatus text="Loading..." />}>{children}</Suspense>;
}

/** Every route of the app, behind the authentication gate (which lets subscription paths through). */
export function AppRoutes() {
  return (
    <AuthGate>
      <Routes>
        <Route path="/" element={<WorkspacePage />} />
        <Route path="/auth/callback" element={<AuthCallbackPage />} />
        <Route path="/login" element={<Navigate to="/" replace />} />
        <Route
          path="/subscribe"
          element={
            <Lazy>
              <SubscribePage />
            </Lazy>
          }
        />
        <Route
          path="/subscribe/success"
          element={
            <Lazy>
              <SubscribeSuccessPage />
            </Lazy>
          }
        />
        <Route
          path="/subscribe/cancel"
          element={
            <Lazy>
              <SubscribeCancelPage />
            </Lazy>
          }
        />
        <Route
          path="/subscription"
          element={
            <Lazy>
              <SubscriptionPage />
            </Lazy>
          }
        />
        <Route
          path="/logs"
          element={
            <Lazy>
              <LogsPage />
            </Lazy>
          }
        />
        <Route
          path="/stats"
          element={
            <Lazy>
              <StatsPage />
            </Lazy>
          }
        />
        <Route
          path="/credentials"
          element={
            <Lazy>
              <CredentialsPage />
            </Lazy>
          }
        />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </AuthGate>
  );
}
