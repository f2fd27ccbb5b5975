import { Placeholder } from '../../components/page';

export function DealsPage() {
  return <Placeholder title="Deals" />;
}
