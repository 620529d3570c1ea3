import { Center, Loader, Stack, Text } from '@mantine/core';

/** Full-page spinner with a line of text. */
export function CenteredStatus({ text }: { text: string }) {
  return (
    <Center mih="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader aria-hidden />
        <Text>{text}</Text>
      </Stack>
    </Center>
  );
}
