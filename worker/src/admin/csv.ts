/**
 * CSV for the seller's spreadsheet (RFC 4180: CRLF lines, quoted cells where needed). Anyone can
 * join the waitlist or type an e-mail at checkout, and a spreadsheet runs a cell that starts with
 * = + - @, a tab or a CR as a formula, so such a cell gets a leading apostrophe (OWASP's advice
 * against CSV injection): the spreadsheet shows it as text.
 */
function cell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

export function csv(rows: string[][]): string {
  return rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
