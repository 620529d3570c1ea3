import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import { installClearLoadingShortcut } from '../lib/loading-store';
import { registerNavigator } from '../lib/navigation';

/** Hands the router's navigate to the API client and installs the Ctrl+Shift+C shortcut. */
export function AppEffects() {
  const navigate = useNavigate();
  useEffect(() => registerNavigator((to, options) => void navigate(to, options)), [navigate]);
  useEffect(
    () =>
      installClearLoadingShortcut((count) =>
        notifications.show({
          message: count > 0 ? `Cleared ${count} stuck loading state(s)` : 'No stuck loading states',
        }),
      ),
    [],
  );
  return null;
}
