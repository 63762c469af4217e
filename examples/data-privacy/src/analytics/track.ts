import axios from "axios";

const tracker = axios.create({ baseURL: "https://tracker.example.com" });

export async function trackSignup(userId: string, email: string) {
  await tracker.post("/events", { name: "signup", userId, email });
}
