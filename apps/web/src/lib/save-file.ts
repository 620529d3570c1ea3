/** How long the file's object URL stays valid after the click (some browsers read it late). */
const REVOKE_DELAY_MS = 1000;

/** Hands a downloaded file to the browser, as a click on a link to it would. */
export function saveFile(content: Blob, fileName: string): void {
  const url = URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_DELAY_MS);
}
