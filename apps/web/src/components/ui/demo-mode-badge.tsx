import { Badge } from '@mantine/core';

export const DEMO_MODE_TEXT = 'Demo mode — simulated Reddit';

/** Shown whenever the server runs its embedded demo (simulated Reddit, dev sign-in). */
export function DemoModeBadge() {
  return (
    <Badge color="orange" variant="filled" tt="none" style={{ flexShrink: 0 }}>
      {DEMO_MODE_TEXT}
    </Badge>
  );
}
