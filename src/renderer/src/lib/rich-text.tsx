/**
 * Trait overviews may contain simple HTML. They are rendered as React elements from an
 * allow-list (paragraphs, emphasis, lists, links to the web), never as raw HTML.
 */
import { ExternalLink } from '../components/ExternalLink.js';
import { Fragment, type ReactNode } from 'react';

const ALLOWED = new Set(['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'ul', 'ol', 'li', 'a', 'sup', 'sub', 'span']);

function convert(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  const children = Array.from(el.childNodes).map((c, i) => convert(c, i));
  if (!ALLOWED.has(tag)) return <Fragment key={key}>{children}</Fragment>;
  if (tag === 'br') return <br key={key} />;
  if (tag === 'a') {
    const href = el.getAttribute('href') ?? '';
    if (!/^https?:\/\//i.test(href)) return <Fragment key={key}>{children}</Fragment>;
    return (
      <ExternalLink key={key} href={href}>
        {children}
      </ExternalLink>
    );
  }
  const Tag = tag as 'p';
  return <Tag key={key}>{children}</Tag>;
}

export function RichText({ html, className }: { html: string; className?: string }) {
  if (!/[<&]/.test(html))
    return (
      <div className={className}>
        <p>{html}</p>
      </div>
    );
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return <div className={className}>{Array.from(doc.body.childNodes).map((n, i) => convert(n, i))}</div>;
}
