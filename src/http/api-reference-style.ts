// The API reference's look: Scalar's theme variables set to the dashboard's palette and fonts
// (dashboard/src/styles.css), so that /docs and /dashboard read as one product.
export const apiReferenceStyle = `
:root {
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --scalar-font-code: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  --scalar-radius: 6px;
}
.light-mode {
  --scalar-color-1: #111827;
  --scalar-color-2: #4b5563;
  --scalar-color-3: #6b7280;
  --scalar-color-accent: #1d4ed8;
  --scalar-background-1: #ffffff;
  --scalar-background-2: #f3f4f6;
  --scalar-background-3: #e5e7eb;
  --scalar-background-accent: #1d4ed81f;
  --scalar-border-color: #d1d5db;
  --scalar-link-color: #1d4ed8;
  --scalar-link-color-hover: #1e40af;
  --scalar-color-green: #166534;
  --scalar-color-red: #b91c1c;
  --scalar-color-blue: #1d4ed8;
  --scalar-button-1: #1d4ed8;
  --scalar-button-1-hover: #1e40af;
  --scalar-button-1-color: #ffffff;
  --scalar-sidebar-background-1: #f3f4f6;
  --scalar-sidebar-color-1: #111827;
  --scalar-sidebar-color-2: #4b5563;
  --scalar-sidebar-border-color: #d1d5db;
  --scalar-sidebar-item-hover-background: #e5e7eb;
  --scalar-sidebar-item-active-background: #dbe4fb;
  --scalar-sidebar-color-active: #1d4ed8;
  --scalar-sidebar-search-background: #ffffff;
}
`;
