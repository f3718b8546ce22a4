/**
 * A server's WebSocket text frame (RFC 6455 §5.2: FIN, opcode 1, unmasked) of `head` followed by
 * `tail`, in one buffer, for the direct `next` writes (ws-transport.ts, nextOutlet): the tail — an
 * event's payload encoded once — is shared by every subscriber of the event, and only the head
 * (the subscription's id) is theirs, so a subscriber costs a copy of bytes already encoded instead
 * of `ws`'s per-message UTF-8 encoding of a fresh string, its separate header buffer and two writes.
 */
export function textFrame(head: Buffer, tail: Buffer): Buffer {
  const length = head.length + tail.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  head.copy(frame, header);
  tail.copy(frame, header + head.length);
  return frame;
}
