/**
 * HTTP tool documents call public addresses only, unless the server allows more
 * (VANCE_TOOL_HTTP_PRIVATE_NETWORK): a tenant's tool must not reach the server's own loopback, the
 * cloud metadata endpoint or the private network the server sits in. Checked for the first request
 * and every redirect. Kept simple on purpose: the name is resolved here and again by fetch, so a
 * name whose answer changes between the two (DNS rebinding) is not caught — pinning the address
 * needs a custom dispatcher, which is left for when the deployment ships one.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ToolCallFailedError } from '../domain/tools/tool-call-errors';

const PRIVATE = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(raw: string): boolean {
  // An IPv4-mapped IPv6 address is the IPv4 address it maps.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw);
  const address = mapped ? mapped[1]! : raw;
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Throws a ToolCallFailedError when the URL's host is, or resolves to, a private address. */
export async function assertPublicHost(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new ToolCallFailedError(`the host '${host}' does not resolve`);
  const blocked = addresses.find(isPrivateAddress);
  if (blocked !== undefined) {
    throw new ToolCallFailedError(`refused: '${host}' is a private or loopback address (${blocked}); HTTP tools call public addresses only on this server`);
  }
}
