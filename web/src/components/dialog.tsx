import type { ReactNode } from 'react';
import { Alert } from './alert';
import { SecretField } from './secret';
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

/** The buttons ending a dialog's form: Cancel, then the primary submit button. */
export function FormActions({
  submitLabel,
  onCancel,
  pending,
  variant = 'primary',
}: {
  submitLabel: string;
  onCancel: () => void;
  pending?: boolean;
  variant?: 'primary' | 'danger';
}) {
  return (
    <div className="dialog-actions">
      <Button onClick={onCancel}>Cancel</Button>
      <Button type="submit" variant={variant} disabled={pending}>
        {submitLabel}
      </Button>
    </div>
  );
}

/** The one button ending a dialog that only shows something. */
export function DoneAction({ onDone }: { onDone: () => void }) {
  return (
    <div className="dialog-actions">
      <Button variant="primary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

/** A secret the server shows only once (a signing secret), with the warning, a copy button and Done. */
export function SecretShownDialog({
  title,
  warning,
  label,
  secret,
  copyLabel,
  isOpen = true,
  onDone,
}: {
  title: string;
  warning: string;
  label: string;
  secret: string;
  copyLabel: string;
  isOpen?: boolean;
  onDone: () => void;
}) {
  return (
    <Dialog title={title} isOpen={isOpen} onOpenChange={(open) => !open && onDone()}>
      <Alert tone="warning">{warning}</Alert>
      <SecretField label={label} value={secret} copyLabel={copyLabel} />
      <DoneAction onDone={onDone} />
    </Dialog>
  );
}
