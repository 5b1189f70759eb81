package io.deltafunnel.emulator.wire;

import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsReader;

/** ALL_HEADERS (MS-TDS 2.2.5.3) at the start of SQL_BATCH, RPC and transaction manager requests. */
public final class AllHeaders {
    private AllHeaders() {
    }

    /** Reads ALL_HEADERS after checking its framing; returns the Transaction Descriptor header's descriptor. */
    public static long readTransactionDescriptor(TdsReader r) {
        long total = r.readUnsignedInt();
        if (total < 4 || total > 1 << 20) {
            throw new TdsProtocolException("bad ALL_HEADERS length " + total);
        }
        long left = total - 4;
        Long descriptor = null;
        while (left > 0) {
            long len = r.readUnsignedInt();
            if (len < 6 || len > left) {
                throw new TdsProtocolException("bad header length " + len + " in ALL_HEADERS");
            }
            int type = r.readUnsignedShort();
            if (type == TRANSACTION_DESCRIPTOR && len == 18) {
                descriptor = r.readLong();
                r.skip(4); // outstanding request count
            } else {
                r.skip(len - 6);
            }
            left -= len;
        }
        if (descriptor == null) {
            throw new TdsProtocolException("ALL_HEADERS without the required Transaction Descriptor header");
        }
        return descriptor;
    }

    private static final int TRANSACTION_DESCRIPTOR = 2;
}
