import { Cart, CartPhase } from "./cart.js";

export function beginCheckout(cart: Cart): void {
  if (cart.phase === CartPhase.Filled) {
    cart.phase = CartPhase.CheckingOut;
  }
}

export function cancelCheckout(cart: Cart): void {
  if (cart.phase !== CartPhase.CheckingOut) {
    return;
  }
  cart.phase = CartPhase.Filled;
}

export async function pay(cart: Cart, charge: (total: number) => Promise<boolean>): Promise<void> {
  if (cart.phase === CartPhase.CheckingOut && (await charge(cart.total))) {
    cart.phase = CartPhase.Paid;
  }
}

// A "free order" shortcut: an empty cart is marked paid, with a zero total, without a checkout.
export function completeFreeOrder(cart: Cart): void {
  if (cart.phase === CartPhase.Empty) {
    cart.total = 0;
    cart.phase = CartPhase.Paid;
  }
}

// Called by the payment provider's redirect: it trusts the redirect and never looks at the phase.
export function onPaymentRedirect(cart: Cart, status: string): void {
  if (status === "succeeded") {
    cart.phase = CartPhase.Paid;
  }
}
