package com.example.shop.consent

class ConsentScreen(private val store: ConsentStore) {

    fun showConsent() {
        store.markShown()
    }

    fun acceptConsent() {
        store.markAccepted()
    }

    // First launch: the dialog is shown, then the user's choice is recorded.
    fun onFirstLaunch(accepted: Boolean) {
        showConsent()
        if (accepted) {
            acceptConsent()
        }
    }

    // Deep link from the marketing e-mail: records consent before the dialog is ever shown.
    fun onMarketingDeepLink() {
        acceptConsent()
        showConsent()
    }
}

interface ConsentStore {
    fun markShown()
    fun markAccepted()
}
