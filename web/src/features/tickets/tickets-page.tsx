import { Placeholder } from '../../components/page';

export function TicketsPage() {
  return <Placeholder title="Tickets" />;
}
