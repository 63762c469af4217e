package com.example.shop.checkout

enum class CartPhase { Empty, Filled, CheckingOut, Paid }

data class Cart(
    var phase: CartPhase = CartPhase.Empty,
    val items: MutableList<String> = mutableListOf(),
    var total: Long = 0,
)
