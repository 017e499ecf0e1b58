import { useState } from 'react';

/**
 * Copies text to the clipboard. The Clipboard API needs a secure context, which loopback HTTP and
 * app:// are; if it is refused anyway the button says so instead of failing silently.
 */
export function CopyButton({ text, label = 'Copy', testId }: { text: string; label?: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" className="btn small" onClick={copy} data-testid={testId} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy blocked: select and copy' : label}
    </button>
  );
}
