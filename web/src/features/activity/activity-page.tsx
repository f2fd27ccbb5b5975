import { Placeholder } from '../../components/page';

export function ActivityPage() {
  return <Placeholder title="Activity" />;
}
