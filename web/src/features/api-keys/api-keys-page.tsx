import { Placeholder } from '../../components/page';

export function ApiKeysPage() {
  return <Placeholder title="API keys" />;
}
