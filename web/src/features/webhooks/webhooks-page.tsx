import { Placeholder } from '../../components/page';

export function WebhooksPage() {
  return <Placeholder title="Webhooks" />;
}
