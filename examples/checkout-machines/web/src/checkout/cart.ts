export enum CartPhase {
  Empty = "empty",
  Filled = "filled",
  CheckingOut = "checking-out",
  Paid = "paid",
}

export interface Cart {
  phase: CartPhase;
  items: string[];
  total: number;
}

export function addItem(cart: Cart, sku: string, price: number): void {
  cart.items.push(sku);
  cart.total += price;
  if (cart.phase === CartPhase.Empty) {
    cart.phase = CartPhase.Filled;
  }
}

export function removeItem(cart: Cart, sku: string, price: number): void {
  cart.items = cart.items.filter((item) => item !== sku);
  cart.total -= price;
  if (cart.phase === CartPhase.Filled && cart.items.length === 0) {
    cart.phase = CartPhase.Empty;
  }
}

export function clear(cart: Cart): void {
  cart.items = [];
  cart.total = 0;
  cart.phase = CartPhase.Empty;
}
