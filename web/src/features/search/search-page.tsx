import { Placeholder } from '../../components/page';

export function SearchPage() {
  return <Placeholder title="Search" />;
}
