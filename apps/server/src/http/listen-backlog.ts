/**
 * Connections the kernel holds for a listener before they are accepted. Node's default, 511,
 * overflows when thousands of clients open streams at once (the bench's 5,000-stream burst): the
 * kernel then drops their handshakes, each client retries after 1 s, 3 s, 7 s, and its first frame
 * waits that long. Linux caps it at net.core.somaxconn (4096 by default). The server's listeners
 * use it, and so does the bench's upstream stand-in, which takes the burst's connections too.
 */
export const LISTEN_BACKLOG = 4096;
