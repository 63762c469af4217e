export function formatMoney(value: string): string {
  return `$${value}`;
}
