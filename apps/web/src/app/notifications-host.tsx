import { Notifications } from '@mantine/notifications';
import classes from './notifications-host.module.css';

/** The toasts' container, loaded with the first toast (see AppProviders). */
export default function NotificationsHost() {
  // Bottom right, so a toast never covers the top bar's selector, New Project, badge or Logout.
  return <Notifications position="bottom-right" classNames={{ notification: classes.toast }} />;
}
