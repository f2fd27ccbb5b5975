import { Placeholder } from '../../components/page';

export function ContactsPage() {
  return <Placeholder title="Contacts" />;
}
