/**
 * A link to an online resource (PubMed, dbSNP, a study's page). It says, to eyes and to
 * screen readers, that it leaves Traitscope for the web browser: everything else in the
 * app stays on this computer.
 */
import type { ReactNode } from 'react';
import { ExternalIcon } from './icons.js';

function siteOf(href: string): string {
  try {
    return new URL(href).hostname.replace(/^www\./, '');
  } catch {
    return 'a website';
  }
}

export function ExternalLink({
  href,
  className,
  description,
  children,
}: {
  href: string;
  className?: string;
  /** What the link points to (a study's citation), shown on hover before where it opens. */
  description?: string;
  children: ReactNode;
}) {
  const site = siteOf(href);
  const leaves = `Opens ${site} in your web browser, outside Traitscope`;
  return (
    <a
      className={className}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={description ? `${description}. ${leaves}` : leaves}
    >
      {children}
      <ExternalIcon size={12} />
      <span className="visually-hidden"> (opens {site} in your web browser, outside Traitscope)</span>
    </a>
  );
}
