import { Placeholder } from '../../components/page';

export function AnalyticsPage() {
  return <Placeholder title="Analytics" />;
}
