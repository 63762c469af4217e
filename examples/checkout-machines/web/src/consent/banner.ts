export interface Profile {
  email: string;
  consentGiven: boolean;
}

export function showConsent(profile: Profile): void {
  document.getElementById("consent-banner")?.removeAttribute("hidden");
  console.info(`asking ${profile.email} for consent`);
}

export function acceptConsent(profile: Profile): void {
  profile.consentGiven = true;
  document.getElementById("consent-banner")?.setAttribute("hidden", "");
}

export function onFirstVisit(profile: Profile): void {
  showConsent(profile);
  document.getElementById("consent-accept")?.addEventListener("click", () => acceptConsent(profile));
}
