package io.deltafunnel.mssql;

/** Internal, stackless signal that one value does not fit; turned into a {@link ValueOutOfRangeException}. */
final class ValueRejected extends RuntimeException {
    ValueRejected(String reason) {
        super(reason, null, false, false);
    }
}
