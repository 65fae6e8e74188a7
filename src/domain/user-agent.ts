/**
 * A session's or a push subscription's User-Agent as a person names their device: "Chrome on Linux", "Safari on iPhone".
 * Only the browser family and the system: versions and build strings help nobody recognise a session.
 * Order matters: Edge, Opera and Samsung Internet also say "Chrome", and Chrome also says "Safari".
 */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Headless)?(Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** Programs that are not browsers, by their product token: "curl/8.5.0" → "curl". */
const TOOL = /^([A-Za-z][\w.-]*)\/[\w.]+$/;

export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent?.trim()) return "Unknown browser or app";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  const tool = TOOL.exec(userAgent.trim().split(/\s+/)[0] ?? "")?.[1];
  if (tool && tool !== "Mozilla") return system ? `${tool} on ${system}` : tool;
  return system ? `A browser on ${system}` : "Unknown browser or app";
}
