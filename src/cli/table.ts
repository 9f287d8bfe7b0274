// Plain-text tables for list commands: columns padded to their widest cell, two spaces apart.

export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  // A name holding a tab or a line break would break the columns; it is shown with spaces instead.
  rows = rows.map((row) => row.map((cell) => cell.replace(/\p{Cc}/gu, " ")));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}
