import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './button';

/**
 * A modal dialog from React Aria: focus moves in and is trapped, Escape closes it, focus
 * returns to the opener. Controlled by `isOpen` so forms can keep it open on errors.
 */
export function Dialog({
  title,
  isOpen,
  onOpenChange,
  children,
  role = 'dialog',
}: {
  title: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
}) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={onOpenChange} isDismissable>
      <Modal className="modal">
        <AriaDialog className="dialog" role={role}>
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/** "Are you sure?" before something that cannot be undone. */
export function ConfirmDialog({
  title,
  isOpen,
  onOpenChange,
  onConfirm,
  confirmLabel,
  pending,
  children,
}: {
  title: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  confirmLabel: string;
  pending?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} isOpen={isOpen} onOpenChange={onOpenChange} role="alertdialog">
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <Button onClick={() => onOpenChange(false)}>Cancel</Button>
        <Button variant="danger" onClick={onConfirm} disabled={pending}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
