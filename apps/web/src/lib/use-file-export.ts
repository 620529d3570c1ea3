import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { receivedText } from './api-client';
import { errorMessage } from './api-error';
import { saveFile } from './save-file';

/** A file an export fetched: its content and the name to save it under. */
export interface TExportedFile {
  content: Blob;
  fileName: string;
}

/**
 * An Export button's work: `run` fetches the file (telling how many bytes have arrived), saves it, and
 * shows `errorText` with the reason when it fails. `received` says how far a running export is, as shown
 * (the same text again does not render again); null when none runs.
 */
export function useFileExport(errorText: string) {
  const [exporting, setExporting] = useState(false);
  const [received, setReceived] = useState<string | null>(null);
  const run = async (fetchFile: (onProgress: (bytes: number) => void) => Promise<TExportedFile>) => {
    setExporting(true);
    setReceived(receivedText(0));
    try {
      const { content, fileName } = await fetchFile((bytes) => setReceived(receivedText(bytes)));
      saveFile(content, fileName);
    } catch (error) {
      notifications.show({ color: 'red', message: `${errorText}: ${errorMessage(error, '')}` });
    } finally {
      setExporting(false);
      setReceived(null);
    }
  };
  return { exporting, received, run };
}
