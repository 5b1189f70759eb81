package io.deltafunnel.emulator;

import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsReader;

/** ALL_HEADERS (MS-TDS 2.2.5.3) at the start of SQL_BATCH, RPC and transaction manager requests. */
final class AllHeaders {
    private AllHeaders() {
    }

    /** Skips ALL_HEADERS after checking its framing. */
    static void skip(TdsReader r) {
        long total = r.readUnsignedInt();
        if (total < 4 || total > 1 << 20) {
            throw new TdsProtocolException("bad ALL_HEADERS length " + total);
        }
        long left = total - 4;
        while (left > 0) {
            long len = r.readUnsignedInt();
            if (len < 6 || len > left) {
                throw new TdsProtocolException("bad header length " + len + " in ALL_HEADERS");
            }
            r.readUnsignedShort(); // header type
            r.skip(len - 6);
            left -= len;
        }
    }
}
