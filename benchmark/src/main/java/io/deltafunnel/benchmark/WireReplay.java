package io.deltafunnel.benchmark;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;

/**
 * Replays recorded client-to-server TDS byte streams (login, metadata queries, INSERT BULK, BULK_LOAD, commit) on a
 * raw socket, one connection after the other. No driver is involved: the time is what the emulator needs to take the
 * bytes off the socket and decode every row.
 *
 * <p>The replay is a conversation, as the client's was: one request message, then its whole answer. Requests that
 * carry ALL_HEADERS (SQL batch, RPC, transaction manager request) get the transaction descriptor of the replaying
 * session patched in: the server hands descriptors out when a transaction begins (ENVCHANGE type 8) and refuses a
 * request whose descriptor is not its session's, as SQL Server does, so the recorded values are stale.
 */
final class WireReplay {

    private static final int SQL_BATCH = 1;
    private static final int RPC = 3;
    private static final int TRANSACTION_MANAGER = 14;
    private static final int EOM = 0x01;

    private WireReplay() {
    }

    /** Replays all streams against {@code port}; returns the bytes the server sent back. */
    static long replay(List<byte[]> streams, int port) throws IOException {
        long answered = 0;
        for (byte[] stream : streams) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.setTcpNoDelay(true);
                OutputStream out = s.getOutputStream();
                DataInputStream in = new DataInputStream(s.getInputStream());
                long descriptor = 0;
                int at = 0;
                while (at < stream.length) {
                    int end = messageEnd(stream, at);
                    if (isAllHeadersRequest(stream[at])) {
                        patchDescriptor(stream, at, descriptor);
                    }
                    int chunk = 1 << 16;
                    for (int off = at; off < end; off += chunk) {
                        out.write(stream, off, Math.min(chunk, end - off));
                    }
                    out.flush();
                    at = end;
                    byte[] reply = readMessage(in);
                    answered += reply.length;
                    descriptor = descriptorAfter(reply, descriptor);
                }
            }
        }
        return answered;
    }

    private static boolean isAllHeadersRequest(byte type) {
        return type == SQL_BATCH || type == RPC || type == TRANSACTION_MANAGER;
    }

    /** The end (exclusive) of the message starting at {@code at}: after its packet marked end-of-message. */
    private static int messageEnd(byte[] b, int at) {
        int p = at;
        while (true) {
            if (p + 8 > b.length) {
                throw new IllegalStateException("recorded stream ends inside a TDS packet header at " + p);
            }
            int length = ((b[p + 2] & 0xff) << 8) | (b[p + 3] & 0xff);
            int status = b[p + 1] & 0xff;
            p += length;
            if ((status & EOM) != 0) {
                return p;
            }
        }
    }

    /** Writes {@code descriptor} into the Transaction Descriptor header of the message's ALL_HEADERS. */
    private static void patchDescriptor(byte[] b, int at, long descriptor) {
        int payload = at + 8;
        int total = le32(b, payload);
        int h = payload + 4;
        while (h < payload + total) {
            int length = le32(b, h);
            int type = (b[h + 4] & 0xff) | ((b[h + 5] & 0xff) << 8);
            if (type == 2) {
                for (int i = 0; i < 8; i++) {
                    b[h + 6 + i] = (byte) (descriptor >>> (8 * i));
                }
                return;
            }
            h += length;
        }
    }

    /** One whole answer message (all its packets), payloads only. */
    private static byte[] readMessage(DataInputStream in) throws IOException {
        java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();
        byte[] header = new byte[8];
        while (true) {
            in.readFully(header);
            int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
            byte[] body = new byte[length - 8];
            in.readFully(body);
            payload.write(body);
            if ((header[1] & EOM) != 0) {
                return payload.toByteArray();
            }
        }
    }

    /**
     * The session's transaction descriptor after an answer: ENVCHANGE type 8 (begin) sets it; types 9 and 10
     * (commit, rollback) clear it. Found by its byte pattern ({@code E3 0B 00 type}), enough for the small answers
     * of a recorded load.
     */
    private static long descriptorAfter(byte[] reply, long current) {
        long d = current;
        for (int i = 0; i + 13 < reply.length; i++) {
            if ((reply[i] & 0xff) != 0xE3 || reply[i + 1] != 0x0B || reply[i + 2] != 0) {
                continue;
            }
            int type = reply[i + 3];
            if (type == 8 && reply[i + 4] == 8) {
                d = 0;
                for (int k = 0; k < 8; k++) {
                    d |= (reply[i + 5 + k] & 0xffL) << (8 * k);
                }
            } else if ((type == 9 || type == 10) && reply[i + 4] == 0) {
                d = 0;
            }
        }
        return d;
    }

    private static int le32(byte[] b, int i) {
        return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
    }
}
