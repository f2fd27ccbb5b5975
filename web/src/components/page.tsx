import { useEffect, type ReactNode } from 'react';

/** A page's heading (the document title follows it) and its main actions. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · custops`;
  }, [title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

/** The first version of a page still being built: says so plainly instead of pretending. */
export function Placeholder({ title }: { title: string }) {
  return (
    <Page title={title}>
      <p>
        This page is not built yet. The API serves its data under <code>/api/v1</code> meanwhile.
      </p>
    </Page>
  );
}
