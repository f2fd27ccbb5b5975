import { Placeholder } from '../../components/page';

export function OrgsPage() {
  return <Placeholder title="Organizations" />;
}
