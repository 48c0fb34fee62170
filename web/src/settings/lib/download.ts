/**
 * Saves text as a file the person downloads (a zuliprc), without a round trip to the server. Sent as
 * bytes, so the browser keeps the name as given (`zuliprc`, not `zuliprc.txt`).
 */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
