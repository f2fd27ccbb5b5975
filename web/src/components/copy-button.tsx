import { useState } from 'react';
import { Button } from './button';

/** Copies `text` to the clipboard and says so (announced politely). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <span className="copy">
      <Button
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setCopied('yes'),
            () => setCopied('failed'),
          );
        }}
      >
        {label}
      </Button>
      <span role="status" className="copy-status">
        {copied === 'yes' ? 'Copied to the clipboard' : copied === 'failed' ? 'Could not copy; select the text and copy it' : ''}
      </span>
    </span>
  );
}
