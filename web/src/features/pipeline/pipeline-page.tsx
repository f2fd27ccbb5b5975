import { Placeholder } from '../../components/page';

export function PipelinePage() {
  return <Placeholder title="Pipeline" />;
}
