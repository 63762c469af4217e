const prices = new Map<string, number>([["book", 1200], ["pen", 150]]);

export const ledger = {
  price(sku: string): number {
    return prices.get(sku) ?? 0;
  },
  discount(sku: string, cents: number): void {
    prices.set(sku, (prices.get(sku) ?? 0) - cents);
  },
};
