/** The on-screen report as a standalone, print-ready HTML file: its markup plus its own stylesheet. */
import medicationCardCss from '../styles/medication-card.css?raw';
import reportCss from '../styles/report.css?raw';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export function copyReportHtml(paper: HTMLElement, title: string, pageCss = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${reportCss}
${medicationCardCss}
${pageCss}
</style>
</head>
<body class="report-standalone">
${paper.innerHTML}
</body>
</html>
`;
}
