import { loadProfile } from "../storage/profiles.js";
import { trackSignup } from "../analytics/track.js";

export async function signup(id: string) {
  const profile = await loadProfile(id);
  await trackSignup(profile.id, profile.email);
  return profile;
}
