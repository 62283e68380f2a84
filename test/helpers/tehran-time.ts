// The tests' own oracle of a time as the widgets show it: Tehran's clock in Persian digits (`۰۸:۱۵`),
// from the platform's ICU, not from the widgets' date code.

/** `at` (epoch ms) as Tehran's hours and minutes in Persian digits, 24-hour. */
export function tehranTime(at: number): string {
  return new Intl.DateTimeFormat('fa-IR', {
    timeZone: 'Asia/Tehran',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}
