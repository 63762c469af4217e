export function leftPad(text, width, fill = " ") {
  return String(text).padStart(width, fill);
}
