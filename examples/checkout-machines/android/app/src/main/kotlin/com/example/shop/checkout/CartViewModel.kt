package com.example.shop.checkout

class CartViewModel(private val cart: Cart, private val payments: PaymentClient) {

    fun onCheckoutTapped() {
        when (cart.phase) {
            CartPhase.Filled -> cart.phase = CartPhase.CheckingOut
            CartPhase.CheckingOut -> Unit
            else -> error("nothing to check out")
        }
    }

    fun onBackTapped() {
        when (cart.phase) {
            CartPhase.CheckingOut -> cart.phase = CartPhase.Filled
            else -> Unit
        }
    }

    suspend fun onPayTapped() {
        if (cart.phase != CartPhase.CheckingOut) return
        if (payments.charge(cart.total)) {
            cart.phase = CartPhase.Paid
        }
    }

    // Reorder from the order history: the old cart (already paid) becomes a filled cart again.
    fun onReorderTapped(items: List<String>) {
        when (cart.phase) {
            CartPhase.Paid -> cart.phase = CartPhase.Filled
            else -> Unit
        }
        cart.items.addAll(items)
    }
}

interface PaymentClient {
    suspend fun charge(amount: Long): Boolean
}
