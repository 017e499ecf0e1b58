import { useState } from 'react';

/**
 * Copies text to the clipboard. The Clipboard API needs a secure context, which loopback HTTP and
 * app:// are; if it is refused anyway the button says so instead of failing silently. `text` may
 * be fetched on click (a snippet with the real key, which the page does not hold until asked):
 * the clipboard item is handed a promise, so the click's permission to write covers the fetch.
 */
export function CopyButton({
  text,
  label = 'Copy',
  testId,
  title,
}: {
  text: string | (() => Promise<string>);
  label?: string;
  testId?: string;
  title?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      if (typeof text === 'string') await navigator.clipboard.writeText(text);
      else if (typeof ClipboardItem !== 'undefined' && navigator.clipboard.write) {
        const blob = text().then((t) => new Blob([t], { type: 'text/plain' }));
        await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
      } else await navigator.clipboard.writeText(await text());
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" className="btn small" onClick={copy} data-testid={testId} aria-live="polite" title={title}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy blocked: select and copy' : label}
    </button>
  );
}
