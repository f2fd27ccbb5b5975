import { Placeholder } from '../../components/page';

export function TeamPage() {
  return <Placeholder title="Team" />;
}
