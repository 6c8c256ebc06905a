/**
 * IP addresses and CIDR ranges for the callback allowlist setting. Strict
 * textual forms only (no zone ids, no leading zeros in IPv4 octets), so the
 * PHP plugin's filter_var-based check and this one accept the same strings.
 */
const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_RE = new RegExp(`^${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}$`);
const HEX_GROUP_RE = /^[0-9a-fA-F]{1,4}$/;

export function isIpv4(text: string): boolean {
  return IPV4_RE.test(text);
}

export function isIpv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) {
    return false;
  }
  const halves = text.split('::');
  if (halves.length > 2) {
    return false;
  }
  const groups = (part: string): string[] | null => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) {
    return false;
  }
  const all = [...head, ...tail];
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i]!;
    // The last group is the address's end only if nothing follows it ("1.2.3.4::" is invalid).
    const atEnd = i === all.length - 1 && (halves.length === 1 || tail.length > 0);
    if (atEnd && g.includes('.')) {
      // Embedded IPv4 (e.g. ::ffff:192.0.2.1) counts as two groups and must come last.
      if (!isIpv4(g)) {
        return false;
      }
      count += 2;
    } else if (HEX_GROUP_RE.test(g)) {
      count += 1;
    } else {
      return false;
    }
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** An IPv4/IPv6 address, or a CIDR range such as 192.0.2.0/24 or 2001:db8::/32. */
export function isIpOrCidr(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) {
    return isIpv4(text) || isIpv6(text);
  }
  const address = text.slice(0, slash);
  const prefix = text.slice(slash + 1);
  if (!/^(?:0|[1-9]\d{0,2})$/.test(prefix)) {
    return false;
  }
  if (isIpv4(address)) {
    return Number(prefix) <= 32;
  }
  if (isIpv6(address)) {
    return Number(prefix) <= 128;
  }
  return false;
}

/** Split an allowlist on commas and whitespace (one per line in the settings page); empty entries dropped. */
export function splitIpList(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== '');
}
